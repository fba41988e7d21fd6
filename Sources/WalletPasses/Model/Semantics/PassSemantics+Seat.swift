import WalletDocuments

extension PassSemantics {
    /// A seat at an event or on a journey (an entry of `seats`).
    public struct Seat: DocumentDictionary {
        /// Every key, as read or set.
        public var json: [String: JSONValue]

        /// Wraps the dictionary as it is.
        public init(json: [String: JSONValue]) { self.json = json }

        /// Creates a seat.
        public init(section: String? = nil, row: String? = nil, number: String? = nil) {
            self.init(json: [:])
            self.seatSection = section
            self.seatRow = row
            self.seatNumber = number
        }

        /// The seat's section.
        public var seatSection: String? {
            get { self["seatSection"] }
            set { self["seatSection"] = newValue }
        }
        /// The seat's row.
        public var seatRow: String? {
            get { self["seatRow"] }
            set { self["seatRow"] = newValue }
        }
        /// The seat's number.
        public var seatNumber: String? {
            get { self["seatNumber"] }
            set { self["seatNumber"] = newValue }
        }
        /// The seat's identifier code.
        public var seatIdentifier: String? {
            get { self["seatIdentifier"] }
            set { self["seatIdentifier"] = newValue }
        }
        /// The type of seat, such as Reserved seating.
        public var seatType: String? {
            get { self["seatType"] }
            set { self["seatType"] = newValue }
        }
        /// The seat described, such as A flat bed seat.
        public var seatDescription: String? {
            get { self["seatDescription"] }
            set { self["seatDescription"] = newValue }
        }
        /// The aisle of the seat.
        public var seatAisle: String? {
            get { self["seatAisle"] }
            set { self["seatAisle"] = newValue }
        }
        /// The level of the seat.
        public var seatLevel: String? {
            get { self["seatLevel"] }
            set { self["seatLevel"] = newValue }
        }
        /// A color that identifies the seat's section.
        public var seatSectionColor: PassColor? {
            get { self["seatSectionColor"] }
            set { self["seatSectionColor"] = newValue }
        }

        /// The keys of a seat.
        public static let schema = DocumentSchema(
            "seat",
            [
                .init("seatSection", .string),
                .init("seatRow", .string),
                .init("seatNumber", .string),
                .init("seatIdentifier", .string),
                .init("seatType", .string),
                .init("seatDescription", .string),
                .init("seatAisle", .string, since: .iOS18),
                .init("seatLevel", .string, since: .iOS18),
                .init("seatSectionColor", .color, since: .iOS18),
            ])
    }
}
