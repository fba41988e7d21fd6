import WalletDocuments

extension Pass: PassEventLinks {
    /// Where to change the seat (semantic boarding passes).
    public var changeSeatURL: String? {
        get { self["changeSeatURL"] }
        set { self["changeSeatURL"] = newValue }
    }
    /// The in-flight entertainment (semantic boarding passes).
    public var entertainmentURL: String? {
        get { self["entertainmentURL"] }
        set { self["entertainmentURL"] = newValue }
    }
    /// Where to manage the booking (semantic boarding passes).
    public var managementURL: String? {
        get { self["managementURL"] }
        set { self["managementURL"] = newValue }
    }
    /// Where to add checked bags (semantic boarding passes).
    public var purchaseAdditionalBaggageURL: String? {
        get { self["purchaseAdditionalBaggageURL"] }
        set { self["purchaseAdditionalBaggageURL"] = newValue }
    }
    /// Where to buy lounge access (semantic boarding passes).
    public var purchaseLoungeAccessURL: String? {
        get { self["purchaseLoungeAccessURL"] }
        set { self["purchaseLoungeAccessURL"] = newValue }
    }
    /// Where to buy in-flight Wi-Fi (semantic boarding passes).
    public var purchaseWifiURL: String? {
        get { self["purchaseWifiURL"] }
        set { self["purchaseWifiURL"] = newValue }
    }
    /// Where to register a service animal (semantic boarding passes).
    public var registerServiceAnimalURL: String? {
        get { self["registerServiceAnimalURL"] }
        set { self["registerServiceAnimalURL"] = newValue }
    }
    /// Where to report a lost bag (semantic boarding passes).
    public var reportLostBagURL: String? {
        get { self["reportLostBagURL"] }
        set { self["reportLostBagURL"] = newValue }
    }
    /// Where to request a wheelchair (semantic boarding passes).
    public var requestWheelchairURL: String? {
        get { self["requestWheelchairURL"] }
        set { self["requestWheelchairURL"] = newValue }
    }
    /// The transit provider's email address (semantic boarding passes).
    public var transitProviderEmail: String? {
        get { self["transitProviderEmail"] }
        set { self["transitProviderEmail"] = newValue }
    }
    /// The transit provider's phone number (semantic boarding passes).
    public var transitProviderPhoneNumber: String? {
        get { self["transitProviderPhoneNumber"] }
        set { self["transitProviderPhoneNumber"] = newValue }
    }
    /// The transit provider's website (semantic boarding passes).
    public var transitProviderWebsiteURL: String? {
        get { self["transitProviderWebsiteURL"] }
        set { self["transitProviderWebsiteURL"] = newValue }
    }
    /// Where to track checked bags (semantic boarding passes).
    public var trackBagsURL: String? {
        get { self["trackBagsURL"] }
        set { self["trackBagsURL"] = newValue }
    }
    /// Where to upgrade the booking (semantic boarding passes).
    public var upgradeURL: String? {
        get { self["upgradeURL"] }
        set { self["upgradeURL"] = newValue }
    }

    /// The links and contacts of semantic boarding passes.
    static let boardingLinkEntries: [DocumentSchema.Entry] = [
        .init("changeSeatURL", .url(secure: false), since: .iOS26),
        .init("entertainmentURL", .url(secure: false), since: .iOS26),
        .init("managementURL", .url(secure: false), since: .iOS26),
        .init("purchaseAdditionalBaggageURL", .url(secure: false), since: .iOS26),
        .init("purchaseLoungeAccessURL", .url(secure: false), since: .iOS26),
        .init("purchaseWifiURL", .url(secure: false), since: .iOS26),
        .init("registerServiceAnimalURL", .url(secure: false), since: .iOS26),
        .init("reportLostBagURL", .url(secure: false), since: .iOS26),
        .init("requestWheelchairURL", .url(secure: false), since: .iOS26),
        .init("transitProviderEmail", .string, since: .iOS26),
        .init("transitProviderPhoneNumber", .string, since: .iOS26),
        .init("transitProviderWebsiteURL", .url(secure: false), since: .iOS26),
        .init("trackBagsURL", .url(secure: false), since: .iOS26),
        .init("upgradeURL", .url(secure: false), since: .iOS26),
    ]
}
