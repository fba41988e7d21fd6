import WalletDocuments

/// The links and contacts of an event's guide on a poster event ticket (iOS 18): on the pass itself, and on each
/// upcoming event (``PassUpcomingEntry/urls``).
public protocol PassEventLinks: DocumentDictionary {}

extension PassEventLinks {
    /// A page about accessibility at the venue.
    public var accessibilityURL: String? {
        get { self["accessibilityURL"] }
        set { self["accessibilityURL"] = newValue }
    }
    /// A page of extras the holder can add to the ticket.
    public var addOnURL: String? {
        get { self["addOnURL"] }
        set { self["addOnURL"] = newValue }
    }
    /// The venue's bag policy.
    public var bagPolicyURL: String? {
        get { self["bagPolicyURL"] }
        set { self["bagPolicyURL"] = newValue }
    }
    /// The email address to contact the venue, event or issuer.
    public var contactVenueEmail: String? {
        get { self["contactVenueEmail"] }
        set { self["contactVenueEmail"] = newValue }
    }
    /// The phone number to contact the venue, event or issuer.
    public var contactVenuePhoneNumber: String? {
        get { self["contactVenuePhoneNumber"] }
        set { self["contactVenuePhoneNumber"] = newValue }
    }
    /// The website of the venue, event or issuer.
    public var contactVenueWebsite: String? {
        get { self["contactVenueWebsite"] }
        set { self["contactVenueWebsite"] = newValue }
    }
    /// Directions to the venue.
    public var directionsInformationURL: String? {
        get { self["directionsInformationURL"] }
        set { self["directionsInformationURL"] = newValue }
    }
    /// The event's merchandise shop.
    public var merchandiseURL: String? {
        get { self["merchandiseURL"] }
        set { self["merchandiseURL"] = newValue }
    }
    /// The venue's food ordering.
    public var orderFoodURL: String? {
        get { self["orderFoodURL"] }
        set { self["orderFoodURL"] = newValue }
    }
    /// Parking information.
    public var parkingInformationURL: String? {
        get { self["parkingInformationURL"] }
        set { self["parkingInformationURL"] = newValue }
    }
    /// Where to buy parking.
    public var purchaseParkingURL: String? {
        get { self["purchaseParkingURL"] }
        set { self["purchaseParkingURL"] = newValue }
    }
    /// The issuer's flow to sell the ticket.
    public var sellURL: String? {
        get { self["sellURL"] }
        set { self["sellURL"] = newValue }
    }
    /// The issuer's flow to transfer the ticket.
    public var transferURL: String? {
        get { self["transferURL"] }
        set { self["transferURL"] = newValue }
    }
    /// Public transport to the venue.
    public var transitInformationURL: String? {
        get { self["transitInformationURL"] }
        set { self["transitInformationURL"] = newValue }
    }
}

extension DocumentSchema.Entry {
    /// The keys of ``PassEventLinks``.
    static let eventLinks: [DocumentSchema.Entry] = [
        .init("accessibilityURL", .url(secure: false), since: .iOS18),
        .init("addOnURL", .url(secure: false), since: .iOS18),
        .init("bagPolicyURL", .url(secure: false), since: .iOS18),
        .init("contactVenueEmail", .string, since: .iOS18),
        .init("contactVenuePhoneNumber", .string, since: .iOS18),
        .init("contactVenueWebsite", .url(secure: false), since: .iOS18),
        .init("directionsInformationURL", .url(secure: false), since: .iOS18),
        .init("merchandiseURL", .url(secure: false), since: .iOS18),
        .init("orderFoodURL", .url(secure: false), since: .iOS18),
        .init("parkingInformationURL", .url(secure: false), since: .iOS18),
        .init("purchaseParkingURL", .url(secure: false), since: .iOS18),
        .init("sellURL", .url(secure: false), since: .iOS18),
        .init("transferURL", .url(secure: false), since: .iOS18),
        .init("transitInformationURL", .url(secure: false), since: .iOS18),
    ]
}
