import WalletDocuments

extension PassUpcomingEntry {
    /// The images of an upcoming entry's details screen.
    public struct Images: DocumentDictionary {
        /// Every key, as read or set.
        public var json: [String: JSONValue]

        /// Wraps the dictionary as it is.
        public init(json: [String: JSONValue]) { self.json = json }

        /// The image at the top of the details screen.
        public var headerImage: Image? {
            get { self["headerImage"] }
            set { self["headerImage"] = newValue }
        }
        /// The venue map of the entry's event guide.
        public var venueMap: Image? {
            get { self["venueMap"] }
            set { self["venueMap"] = newValue }
        }

        /// The keys of an entry's images.
        public static let schema = DocumentSchema(
            "upcoming entry images",
            [
                .init("headerImage", .dictionary(Image.self)),
                .init("venueMap", .dictionary(Image.self)),
            ])
    }

    /// An image of an upcoming entry: downloaded from URLs, or the pass's own image of the same role.
    public struct Image: DocumentDictionary {
        /// Every key, as read or set.
        public var json: [String: JSONValue]

        /// Wraps the dictionary as it is.
        public init(json: [String: JSONValue]) { self.json = json }

        /// Where to download the image, one URL per scale; Wallet takes the best match for the screen.
        public var urls: [ImageURL]? {
            get { self["URLs"] }
            set { self["URLs"] = newValue }
        }
        /// Whether to show the pass's own image of the same role instead of downloading one.
        public var reuseExisting: Bool? {
            get { self["reuseExisting"] }
            set { self["reuseExisting"] = newValue }
        }

        /// The keys of an entry's image.
        public static let schema = DocumentSchema(
            "upcoming entry image",
            [
                .init("URLs", .array(.dictionary(ImageURL.self))),
                .init("reuseExisting", .boolean),
            ])
    }

    /// One downloadable version of an upcoming entry's image.
    public struct ImageURL: DocumentDictionary {
        /// The largest image Wallet downloads, in bytes.
        public static let maximumSize = 2 * 1024 * 1024

        /// Every key, as read or set.
        public var json: [String: JSONValue]

        /// Wraps the dictionary as it is.
        public init(json: [String: JSONValue]) { self.json = json }

        /// Creates a downloadable image.
        public init(url: String, sha256: String, scale: Double? = nil, size: Int? = nil) {
            self.init(json: [:])
            self.url = url
            self.sha256 = sha256
            self.scale = scale
            self.size = size
        }

        /// The https URL of the image (required).
        public var url: String {
            get { self["URL", default: ""] }
            set { self["URL", default: ""] = newValue }
        }
        /// The lowercase hex SHA-256 of the image's bytes (required).
        public var sha256: String {
            get { self["SHA256", default: ""] }
            set { self["SHA256", default: ""] = newValue }
        }
        /// The scale the image is drawn for; 1 when absent.
        public var scale: Double? {
            get { self["scale"] }
            set { self["scale"] = newValue }
        }
        /// The image's size in bytes, at most ``maximumSize``.
        public var size: Int? {
            get { self["size"] }
            set { self["size"] = newValue }
        }

        /// The keys of a downloadable image.
        public static let schema = DocumentSchema(
            "image URL",
            [
                .init("URL", .url(secure: true), required: true),
                .init("SHA256", .string, required: true),
                .init("scale", .number),
                .init("size", .integer),
            ])
    }
}
