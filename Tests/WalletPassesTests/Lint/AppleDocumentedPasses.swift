import WalletDocuments

/// `pass.json` documents shaped like the examples in Apple's Wallet documentation: the same keys, nesting, value
/// types and formats as Apple's samples, with made-up values (names, places, numbers, identifiers, keys) and with the
/// mistakes of Apple's samples corrected. Each is a valid pass as Apple documents it, so `PassLint` finds no errors in
/// it, and decoding then encoding it must give back the same JSON.
enum AppleDocumentedPasses {
    /// Each document with a short name for test messages; the comment above each names the Apple page it mirrors.
    static let all: [(name: String, json: String)] = [
        // Mirrors "Creating a poster event pass using semantic tags" (sport event), plus the Pass page's event guide
        // URLs. Apple's sample is not JSON as printed (// comments, "..." field lists, trailing commas) and its NFC
        // key is the placeholder "PUBLICKEY": here the fields are filled in and the key is a real P-256 public key.
        (
            name: "poster-event-ticket-sports",
            json: #"""
            {
                "formatVersion": 1,
                "passTypeIdentifier": "pass.net.example.harborfc.match",
                "teamIdentifier": "R4T8W2K6NZ",
                "serialNumber": "HFC26-0917-118-04-12",
                "organizationName": "Harbor FC",
                "description": "Harbor FC vs. Ridge United, September 17",
                "groupingIdentifier": "harbor-fc-2026-home",
                "foregroundColor": "rgb(250, 250, 247)",
                "labelColor": "rgb(198, 214, 230)",
                "backgroundColor": "rgb(18, 52, 86)",
                "footerBackgroundColor": "rgb(222, 64, 52)",
                "suppressHeaderDarkening": true,
                "eventLogoText": "Harbor FC",
                "sharingProhibited": true,
                "associatedStoreIdentifiers": [6740012345],
                "auxiliaryStoreIdentifiers": [6740012346, 6740012347],
                "nfc": {
                    "message": "HFC26:0917:118-04-12",
                    "encryptionPublicKey": "MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAExohS2nzKkJmGpeWrsp6r\#
            nrSA3XLzncFX+fTfGhvMVZBSvn7+1TtCs1sMbdK9Ndc6Fky1erCED1cCGKivWJ6SpA==",
                    "requiresAuthentication": true
                },
                "eventTicket": {
                    "headerFields": [
                        {
                            "key": "kickoff",
                            "label": "Kickoff",
                            "value": "2026-09-17T19:30-07:00",
                            "dateStyle": "PKDateStyleMedium",
                            "timeStyle": "PKDateStyleShort"
                        }
                    ],
                    "primaryFields": [
                        {
                            "key": "match",
                            "label": "Harbor Park",
                            "value": "Harbor v Ridge"
                        }
                    ],
                    "secondaryFields": [
                        {
                            "key": "section",
                            "label": "Section",
                            "value": "118"
                        },
                        {
                            "key": "row",
                            "label": "Row",
                            "value": "04"
                        },
                        {
                            "key": "seat",
                            "label": "Seat",
                            "value": "12",
                            "changeMessage": "Your seat is now %@"
                        }
                    ],
                    "auxiliaryFields": [
                        {
                            "key": "gate",
                            "label": "Gate",
                            "value": "North 3",
                            "row": 0
                        },
                        {
                            "key": "gates-open",
                            "label": "Gates open",
                            "value": "2026-09-17T18:00-07:00",
                            "dateStyle": "PKDateStyleNone",
                            "timeStyle": "PKDateStyleShort",
                            "row": 0
                        },
                        {
                            "key": "admission",
                            "label": "Admission",
                            "value": "Reserved",
                            "textAlignment": "PKTextAlignmentCenter",
                            "row": 1
                        }
                    ],
                    "backFields": [
                        {
                            "key": "holder",
                            "label": "Ticket holder",
                            "value": "Mara Quill"
                        },
                        {
                            "key": "guest-services",
                            "label": "Guest services",
                            "value": "+1 555 010 0148",
                            "dataDetectorTypes": ["PKDataDetectorTypePhoneNumber"]
                        },
                        {
                            "key": "terms",
                            "label": "Terms",
                            "value": "Valid for one entry. Resell only at https://tickets.example.net.",
                            "dataDetectorTypes": ["PKDataDetectorTypeLink"]
                        }
                    ],
                    "additionalInfoFields": [
                        {
                            "key": "bags",
                            "label": "Bags",
                            "value": "Clear bags up to 12 x 6 x 12 inches."
                        },
                        {
                            "key": "parking",
                            "label": "Parking",
                            "value": "Lot C opens at 5:00 PM."
                        }
                    ]
                },
                "relevantDates": [
                    {
                        "startDate": "2026-09-17T16:30-07:00",
                        "endDate": "2026-09-17T23:00-07:00"
                    }
                ],
                "preferredStyleSchemes": [
                    "posterEventTicket",
                    "eventTicket"
                ],
                "semantics": {
                    "eventType": "PKEventTypeSports",
                    "eventName": "Harbor FC vs. Ridge United",
                    "eventStartDate": "2026-09-17T19:30-07:00",
                    "eventEndDate": "2026-09-17T21:30-07:00",
                    "eventStartDateInfo": {
                        "date": "2026-09-17T19:30-07:00",
                        "timeZone": "America/Los_Angeles",
                        "ignoreTimeComponents": false,
                        "unannounced": false,
                        "undetermined": false
                    },
                    "seats": [
                        {
                            "seatDescription": "Lower bowl, home side",
                            "seatIdentifier": "118-04-12",
                            "seatNumber": "12",
                            "seatRow": "04",
                            "seatSection": "118",
                            "seatType": "Bench seat",
                            "seatAisle": "7",
                            "seatLevel": "Field level",
                            "seatSectionColor": "rgb(222, 64, 52)"
                        }
                    ],
                    "homeTeamName": "Harbor FC",
                    "homeTeamLocation": "Portside",
                    "homeTeamAbbreviation": "HFC",
                    "awayTeamName": "Ridge United",
                    "awayTeamLocation": "Ridgeview",
                    "awayTeamAbbreviation": "RDG",
                    "leagueName": "Coastal Soccer League",
                    "leagueAbbreviation": "CSL",
                    "sportName": "Soccer",
                    "admissionLevel": "Reserved seating",
                    "admissionLevelAbbreviation": "RES",
                    "attendeeName": "Mara Quill",
                    "additionalTicketAttributes": "Includes light-rail fare",
                    "entranceDescription": "Enter through the North 3 gate",
                    "tailgatingAllowed": true,
                    "venueName": "Harbor Park",
                    "venueRegionName": "Portside",
                    "venueRoom": "Lower Bowl",
                    "venueLocation": {
                        "latitude": 47.5952,
                        "longitude": -122.3316
                    },
                    "venuePhoneNumber": "+1 555 010 0148",
                    "venueEntranceGate": "North 3",
                    "venueGatesOpenDate": "2026-09-17T18:00-07:00",
                    "venueParkingLotsOpenDate": "2026-09-17T17:00-07:00",
                    "venueFanZoneOpenDate": "2026-09-17T16:30-07:00"
                },
                "accessibilityURL": "https://www.example.net/harbor-park/accessibility",
                "addOnURL": "https://tickets.example.net/orders/HFC26-0917/add-ons",
                "bagPolicyURL": "https://www.example.net/harbor-park/bags",
                "contactVenueEmail": "guests@example.net",
                "contactVenuePhoneNumber": "+1 555 010 0148",
                "contactVenueWebsite": "https://www.example.net/harbor-park",
                "directionsInformationURL": "https://www.example.net/harbor-park/directions",
                "merchandiseURL": "https://shop.example.net/harbor-fc",
                "orderFoodURL": "https://food.example.net/harbor-park/order",
                "parkingInformationURL": "https://www.example.net/harbor-park/parking",
                "purchaseParkingURL": "https://parking.example.net/harbor-park/2026-09-17",
                "sellURL": "https://tickets.example.net/orders/HFC26-0917/sell",
                "transferURL": "https://tickets.example.net/orders/HFC26-0917/transfer",
                "transitInformationURL": "https://www.example.net/harbor-park/transit"
            }
            """#
        ),
        // Mirrors "Creating a poster event pass using semantic tags" (live performance, multiday relevantDates) and
        // "UpcomingPassInformationEntry", with entries shaped like WWDC25 "What's new in Wallet". That sample has a
        // malformed date ("2025-06-1718:30:00-08:00"), additionalInfoFields and backFields written as {} rather than
        // arrays, a misspelled key (transferRL), a stray colon and a truncated SHA256: all corrected here.
        (
            name: "poster-event-ticket-live-performance-upcoming",
            json: #"""
            {
                "formatVersion": 1,
                "passTypeIdentifier": "pass.org.example.cedarhollow.weekend",
                "teamIdentifier": "B6N3Q8T1XW",
                "serialNumber": "CH26-WKND-00731",
                "organizationName": "Cedar Hollow Music Weekend",
                "description": "Cedar Hollow Music Weekend two-day pass",
                "groupingIdentifier": "cedar-hollow-2026",
                "foregroundColor": "rgb(255, 255, 255)",
                "labelColor": "rgb(230, 222, 190)",
                "backgroundColor": "rgb(46, 71, 52)",
                "useAutomaticColors": true,
                "eventLogoText": "Cedar Hollow",
                "sharingProhibited": true,
                "nfc": {
                    "message": "CH26:WKND:00731",
                    "encryptionPublicKey": "MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEkEE8YuV+9nSb2e+xmlEW\#
            oOSVyzgUEZMVDHhYETbPPVC2j7Nk9H10Y8wU2wfEJdgeph0r6Nb/9R99p1B5tE0JOQ==",
                    "requiresAuthentication": true
                },
                "eventTicket": {
                    "primaryFields": [
                        {
                            "key": "festival",
                            "label": "Two-day pass",
                            "value": "Cedar Hollow"
                        }
                    ],
                    "secondaryFields": [
                        {
                            "key": "dates",
                            "label": "Dates",
                            "value": "Aug 21 - 22"
                        },
                        {
                            "key": "stage",
                            "label": "Main stage",
                            "value": "Meadow Stage"
                        }
                    ],
                    "auxiliaryFields": [
                        {
                            "key": "admission",
                            "label": "Admission",
                            "value": "General"
                        },
                        {
                            "key": "holder",
                            "label": "Name",
                            "value": "Tomas Ferreira"
                        }
                    ],
                    "backFields": [
                        {
                            "key": "schedule",
                            "label": "Schedule",
                            "value": "Gates open at noon on both days. Set times are in the event guide."
                        }
                    ],
                    "additionalInfoFields": [
                        {
                            "key": "camping",
                            "label": "Camping",
                            "value": "Campground C, pitch 41"
                        }
                    ]
                },
                "relevantDates": [
                    {
                        "startDate": "2026-08-21T12:00-06:00",
                        "endDate": "2026-08-21T23:30-06:00"
                    },
                    {
                        "startDate": "2026-08-22T12:00-06:00",
                        "endDate": "2026-08-22T23:30-06:00"
                    }
                ],
                "preferredStyleSchemes": [
                    "posterEventTicket",
                    "eventTicket"
                ],
                "semantics": {
                    "eventType": "PKEventTypeLivePerformance",
                    "eventName": "Cedar Hollow Music Weekend",
                    "eventStartDate": "2026-08-21T12:00-06:00",
                    "eventEndDate": "2026-08-22T23:30-06:00",
                    "genre": "Folk",
                    "performerNames": ["The Juniper Lines", "Odessa Vale", "Small Hours Choir"],
                    "artistIDs": ["1690012345", "1690012346"],
                    "albumIDs": ["1700023456"],
                    "playlistIDs": ["pl.4f7a2c9e01b84d3aa5c6e7f8091a2b3c"],
                    "admissionLevel": "General admission",
                    "admissionLevelAbbreviation": "GA",
                    "attendeeName": "Tomas Ferreira",
                    "seats": [
                        {
                            "seatSection": "Lawn",
                            "seatType": "General admission",
                            "seatDescription": "Standing room on the Meadow Stage lawn"
                        }
                    ],
                    "venueName": "Cedar Hollow Meadows",
                    "venueRegionName": "Boulder County",
                    "venueRoom": "Meadow Stage",
                    "venueLocation": {
                        "latitude": 40.0583,
                        "longitude": -105.3511
                    },
                    "venueEntrance": "East gate",
                    "venueBoxOfficeOpenDate": "2026-08-21T10:00-06:00",
                    "venueOpenDate": "2026-08-21T11:00-06:00",
                    "venueDoorsOpenDate": "2026-08-21T12:00-06:00",
                    "venueCloseDate": "2026-08-23T00:30-06:00",
                    "wifiAccess": [
                        {
                            "ssid": "CedarHollow-Guest",
                            "password": "meadow-2026"
                        }
                    ]
                },
                "bagPolicyURL": "https://www.example.org/cedar-hollow/bags",
                "directionsInformationURL": "https://www.example.org/cedar-hollow/getting-here",
                "transferURL": "https://tickets.example.org/cedar-hollow/CH26-WKND-00731/transfer",
                "upcomingPassInformation": [
                    {
                        "type": "event",
                        "identifier": "ch26-friday",
                        "name": "Friday at the Meadow Stage",
                        "isActive": true,
                        "dateInformation": {
                            "date": "2026-08-21T17:30-06:00",
                            "timeZone": "America/Denver",
                            "isAllDay": false,
                            "ignoreTimeComponents": false,
                            "isUnannounced": false,
                            "isUndetermined": false
                        },
                        "semantics": {
                            "eventName": "Friday at the Meadow Stage",
                            "venueName": "Cedar Hollow Meadows",
                            "venueRoom": "Meadow Stage",
                            "venuePlaceID": "I5E8A1C3D7F90B24",
                            "venueLocation": {
                                "latitude": 40.0583,
                                "longitude": -105.3511
                            },
                            "performerNames": ["Odessa Vale", "The Juniper Lines"],
                            "seats": [
                                {
                                    "seatSection": "Lawn",
                                    "seatType": "General admission"
                                }
                            ]
                        },
                        "additionalInfoFields": [
                            {
                                "key": "set-times",
                                "label": "Set times",
                                "value": "Odessa Vale 5:30 PM, The Juniper Lines 8:00 PM"
                            }
                        ],
                        "backFields": [
                            {
                                "key": "re-entry",
                                "label": "Re-entry",
                                "value": "Re-entry is allowed until 7:00 PM."
                            }
                        ],
                        "URLs": {
                            "sellURL": "https://tickets.example.org/cedar-hollow/friday/sell",
                            "transferURL": "https://tickets.example.org/cedar-hollow/friday/transfer",
                            "bagPolicyURL": "https://www.example.org/cedar-hollow/bags",
                            "orderFoodURL": "https://food.example.org/cedar-hollow/friday"
                        },
                        "images": {
                            "headerImage": {
                                "URLs": [
                                    {
                                        "URL": "https://cdn.example.org/cedar-hollow/2026/friday@2x.png",
                                        "SHA256": "60b69249ea53c1ec4bd7e2881a91821ad71e2c4539112297f6dc73d43db63da0",
                                        "scale": 2,
                                        "size": 412337
                                    },
                                    {
                                        "URL": "https://cdn.example.org/cedar-hollow/2026/friday@3x.png",
                                        "SHA256": "b7f1086dc6c72e7671aff5982bf2551d944f1f485b091364a658cbc7a77061f3",
                                        "scale": 3,
                                        "size": 861204
                                    }
                                ]
                            },
                            "venueMap": {
                                "reuseExisting": true
                            }
                        },
                        "auxiliaryStoreIdentifiers": [6741023456]
                    },
                    {
                        "type": "event",
                        "identifier": "ch26-saturday",
                        "name": "Saturday at the Meadow Stage",
                        "dateInformation": {
                            "date": "2026-08-22T00:00-06:00",
                            "timeZone": "America/Denver",
                            "isAllDay": true,
                            "ignoreTimeComponents": true,
                            "isUnannounced": false,
                            "isUndetermined": false
                        },
                        "semantics": {
                            "eventName": "Saturday at the Meadow Stage",
                            "venueName": "Cedar Hollow Meadows",
                            "performerNames": ["Small Hours Choir"]
                        },
                        "URLs": {
                            "transferURL": "https://tickets.example.org/cedar-hollow/saturday/transfer",
                            "directionsInformationURL": "https://www.example.org/cedar-hollow/getting-here"
                        },
                        "images": {
                            "venueMap": {
                                "URLs": [
                                    {
                                        "URL": "https://cdn.example.org/cedar-hollow/2026/meadow-map@2x.png",
                                        "SHA256": "04eeb93c18f464216ed29a8d5d734dfbdde80a6c2507ac90ce39e0bed78299a4",
                                        "scale": 2
                                    }
                                ]
                            }
                        }
                    },
                    {
                        "type": "event",
                        "identifier": "ch26-encore",
                        "name": "Encore night",
                        "dateInformation": {
                            "timeZone": "America/Denver",
                            "isUnannounced": true,
                            "isUndetermined": true
                        }
                    }
                ]
            }
            """#
        ),
        // Mirrors "Creating a poster event pass using semantic tags" (general event) and "Pass.RelevantDates" (a date
        // entry). Apple's sample is not JSON as printed and its NFC key is a placeholder; corrected as above.
        (
            name: "poster-event-ticket-general",
            json: #"""
            {
                "description": "Riverside Lantern Festival entry pass",
                "teamIdentifier": "H2J5K8L3M6",
                "serialNumber": "LF26-55102",
                "formatVersion": 1,
                "foregroundColor": "rgb(255, 255, 255)",
                "labelColor": "rgb(255, 236, 200)",
                "backgroundColor": "rgb(94, 38, 120)",
                "passTypeIdentifier": "pass.com.example.lanternfest.entry",
                "groupingIdentifier": "lantern-festival-2026",
                "organizationName": "Lantern Festival Society",
                "sharingProhibited": true,
                "nfc": {
                    "message": "LF26-55102",
                    "encryptionPublicKey": "MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEQXuFAWNg/GPusT+K5cWU\#
            rTddlfUQJecjLy4K92mOG3Ia7YkjtU+GpIIgqMPFEZIAtY8DPxdetvf72FmVV1ofzA==",
                    "requiresAuthentication": true
                },
                "eventTicket": {
                    "primaryFields": [
                        {
                            "key": "event",
                            "label": "Riverside",
                            "value": "Lantern Festival"
                        }
                    ],
                    "secondaryFields": [
                        {
                            "key": "date",
                            "label": "Date",
                            "value": "2026-10-03T18:00-05:00",
                            "dateStyle": "PKDateStyleMedium",
                            "timeStyle": "PKDateStyleNone",
                            "ignoresTimeZone": true
                        }
                    ],
                    "backFields": []
                },
                "relevantDates": [
                    {
                        "date": "2026-10-03T18:00-05:00"
                    }
                ],
                "preferredStyleSchemes": [
                    "posterEventTicket",
                    "eventTicket"
                ],
                "semantics": {
                    "eventType": "PKEventTypeGeneric",
                    "eventStartDate": "2026-10-03T23:00:00.000Z",
                    "seats": [
                        {
                            "seatDescription": "Riverbank lawn",
                            "seatIdentifier": "RB-07-3",
                            "seatNumber": "3",
                            "seatRow": "07",
                            "seatSection": "RB",
                            "seatType": "Blanket spot"
                        }
                    ],
                    "eventName": "Riverside Lantern Festival",
                    "venueName": "Confluence Park",
                    "venueRegionName": "Riverton",
                    "venueRoom": "Riverbank lawn"
                }
            }
            """#
        ),
        // Mirrors "Creating an airline boarding pass using semantic tags": its required, recommended and optional
        // tags and its airline-services URLs. The article shows no pass.json; WWDC25's boarding snippet misspells
        // purchaseWifiURL (purchaseWifiRL) and names airlineLoungePlaceID: Apple's reference spellings are used here.
        (
            name: "semantic-boarding-pass",
            json: #"""
            {
                "formatVersion": 1,
                "passTypeIdentifier": "pass.com.example.kestrelair.boarding",
                "teamIdentifier": "K7Q2M9X4PA",
                "serialNumber": "KT482-20261103-Q8ZL4M-1",
                "organizationName": "Kestrel Air",
                "description": "KT 482 Seattle to Osaka on November 3",
                "logoText": "Kestrel Air",
                "foregroundColor": "rgb(255, 255, 255)",
                "labelColor": "rgb(160, 196, 232)",
                "backgroundColor": "rgb(10, 38, 71)",
                "webServiceURL": "https://api.example.com/kestrel/wallet",
                "authenticationToken": "9d1f6c2ab7e4458f8c3e0b5a7d2f41c6",
                "associatedStoreIdentifiers": [6742034567],
                "appLaunchURL": "kestrelair://trips/Q8ZL4M",
                "barcodes": [
                    {
                        "format": "PKBarcodeFormatPDF417",
                        "message": "M1QUILL/MARA          EQ8ZL4M SEAKIXKT 0482 307Y027A0047 100",
                        "messageEncoding": "iso-8859-1",
                        "altText": "Q8ZL4M"
                    }
                ],
                "relevantDates": [
                    {
                        "startDate": "2026-11-03T10:30-08:00",
                        "endDate": "2026-11-04T17:45+09:00"
                    }
                ],
                "preferredStyleSchemes": [
                    "semanticBoardingPass",
                    "boardingPass"
                ],
                "boardingPass": {
                    "transitType": "PKTransitTypeAir",
                    "headerFields": [
                        {
                            "key": "flight",
                            "label": "Flight",
                            "value": "KT 482"
                        },
                        {
                            "key": "gate",
                            "label": "Gate",
                            "value": "S12",
                            "changeMessage": "Your gate is now %@"
                        }
                    ],
                    "primaryFields": [
                        {
                            "key": "origin",
                            "label": "Seattle",
                            "value": "SEA"
                        },
                        {
                            "key": "destination",
                            "label": "Osaka",
                            "value": "KIX"
                        }
                    ],
                    "auxiliaryFields": [
                        {
                            "key": "boards",
                            "label": "Boards",
                            "value": "2026-11-03T12:50-08:00",
                            "timeStyle": "PKDateStyleShort",
                            "ignoresTimeZone": true,
                            "changeMessage": "Boarding is now at %@"
                        },
                        {
                            "key": "group",
                            "label": "Group",
                            "value": "2"
                        },
                        {
                            "key": "seat",
                            "label": "Seat",
                            "value": "27A"
                        },
                        {
                            "key": "class",
                            "label": "Class",
                            "value": "Economy"
                        }
                    ],
                    "secondaryFields": [
                        {
                            "key": "passenger",
                            "label": "Passenger",
                            "value": "Mara Quill"
                        },
                        {
                            "key": "confirmation",
                            "label": "Confirmation",
                            "value": "Q8ZL4M"
                        }
                    ],
                    "backFields": [
                        {
                            "key": "departs",
                            "label": "Departs",
                            "value": "2026-11-03T13:30-08:00",
                            "dateStyle": "PKDateStyleFull",
                            "timeStyle": "PKDateStyleShort",
                            "ignoresTimeZone": true
                        },
                        {
                            "key": "baggage",
                            "label": "Baggage",
                            "value": "One checked bag of up to 23 kg is included."
                        },
                        {
                            "key": "help",
                            "label": "Kestrel Air help",
                            "value": "https://www.example.com/kestrel/help",
                            "dataDetectorTypes": ["PKDataDetectorTypeLink"]
                        }
                    ]
                },
                "semantics": {
                    "airlineCode": "KT",
                    "flightCode": "KT482",
                    "flightNumber": 482,
                    "transitProvider": "Kestrel Air",
                    "transitStatus": "Delayed",
                    "transitStatusReason": "Late inbound aircraft",
                    "vehicleType": "Wide-body jet",
                    "duration": 36900,
                    "departureAirportCode": "SEA",
                    "departureAirportName": "Seattle-Tacoma International",
                    "departureCityName": "Seattle",
                    "departureLocation": {
                        "latitude": 47.4436,
                        "longitude": -122.3016
                    },
                    "departureLocationTimeZone": "America/Los_Angeles",
                    "departureAirportTimeZone": "America/Los_Angeles",
                    "departureLocationSecurityPrograms": [
                        "PKTransitSecurityProgramTSAPreCheck",
                        "PKTransitSecurityProgramCLEAR"
                    ],
                    "departureGate": "S12",
                    "departureTerminal": "S",
                    "destinationAirportCode": "KIX",
                    "destinationAirportName": "Kansai International",
                    "destinationCityName": "Osaka",
                    "destinationLocation": {
                        "latitude": 34.4320,
                        "longitude": 135.2304
                    },
                    "destinationLocationTimeZone": "Asia/Tokyo",
                    "destinationAirportTimeZone": "Asia/Tokyo",
                    "destinationLocationSecurityPrograms": [],
                    "destinationGate": "12",
                    "destinationTerminal": "1",
                    "originalBoardingDate": "2026-11-03T12:50-08:00",
                    "originalDepartureDate": "2026-11-03T13:30-08:00",
                    "originalArrivalDate": "2026-11-04T16:45+09:00",
                    "currentBoardingDate": "2026-11-03T13:05-08:00",
                    "currentDepartureDate": "2026-11-03T13:45-08:00",
                    "currentArrivalDate": "2026-11-04T16:55+09:00",
                    "passengerName": {
                        "namePrefix": "Dr.",
                        "givenName": "Mara",
                        "middleName": "Elin",
                        "familyName": "Quill",
                        "phoneticRepresentation": "MAH-rah KWILL"
                    },
                    "passengerEligibleSecurityPrograms": [
                        "PKTransitSecurityProgramTSAPreCheck",
                        "PKTransitSecurityProgramGlobalEntry"
                    ],
                    "passengerCapabilities": [
                        "PKPassengerCapabilityPriorityBoarding",
                        "PKPassengerCapabilityCarryon",
                        "PKPassengerCapabilityPersonalItem"
                    ],
                    "passengerServiceSSRs": ["WCHR"],
                    "passengerInformationSSRs": [],
                    "passengerAirlineSSRs": ["KTQUIET"],
                    "boardingGroup": "2",
                    "boardingZone": "B",
                    "boardingSequenceNumber": "047",
                    "confirmationNumber": "Q8ZL4M",
                    "ticketFareClass": "Economy",
                    "priorityStatus": "Gold",
                    "securityScreening": "Priority",
                    "membershipProgramName": "Kestrel Miles",
                    "membershipProgramNumber": "KM 5520 1193",
                    "membershipProgramStatus": "Gold",
                    "internationalDocumentsAreVerified": true,
                    "internationalDocumentsVerifiedDeclarationName": "Docs OK",
                    "loungePlaceIDs": ["I4B1D2E3F5A6C7D8"],
                    "seats": [
                        {
                            "seatIdentifier": "27A",
                            "seatRow": "27",
                            "seatNumber": "A",
                            "seatType": "Window",
                            "seatDescription": "Economy, window"
                        }
                    ]
                },
                "changeSeatURL": "https://www.example.com/kestrel/trips/Q8ZL4M/seat",
                "entertainmentURL": "https://www.example.com/kestrel/onboard/watch",
                "managementURL": "https://www.example.com/kestrel/trips/Q8ZL4M",
                "orderFoodURL": "https://www.example.com/kestrel/trips/Q8ZL4M/meals",
                "purchaseAdditionalBaggageURL": "https://www.example.com/kestrel/trips/Q8ZL4M/bags",
                "purchaseLoungeAccessURL": "https://www.example.com/kestrel/lounges/SEA",
                "purchaseWifiURL": "https://www.example.com/kestrel/onboard/wifi",
                "registerServiceAnimalURL": "https://www.example.com/kestrel/assistance/animals",
                "reportLostBagURL": "https://www.example.com/kestrel/bags/lost",
                "requestWheelchairURL": "https://www.example.com/kestrel/assistance/wheelchair",
                "trackBagsURL": "https://www.example.com/kestrel/bags/track",
                "upgradeURL": "https://www.example.com/kestrel/trips/Q8ZL4M/upgrade",
                "transitProviderEmail": "care@example.com",
                "transitProviderPhoneNumber": "+1 555 010 0199",
                "transitProviderWebsiteURL": "https://www.example.com/kestrel"
            }
            """#
        ),
        // Mirrors "Creating a poster generic pass" (posterGeneric with a generic fallback), with the footer field,
        // featured actions and iOS 27 barcode of WWDC26 "What's new in Wallet". Fixes in Apple's sample: barcodes
        // was an object (an array here), teamIdentifier had 8 characters, commas were missing or trailing, a //
        // comment sat in the JSON and "2026-01-02T00:00-7:00" had a one-digit offset hour. WWDC26's action used
        // type viewMembership, not in Apple's table, and a URL without a scheme: membershipBenefits and https here.
        (
            name: "poster-generic",
            json: #"""
            {
                "formatVersion": 1,
                "passTypeIdentifier": "pass.org.example.tidepool.membership",
                "serialNumber": "TP-40817263",
                "teamIdentifier": "M3V9C5L1QD",
                "webServiceURL": "https://passes.example.org/tidepool/",
                "authenticationToken": "k4Pw9zQe7RtY2uLmX8sV3nBc",
                "barcodes": [
                    {
                        "message": "A40817263B",
                        "format": "PKBarcodeFormatCodabar",
                        "messageEncoding": "iso-8859-1",
                        "altText": "40817263"
                    },
                    {
                        "message": "A40817263B",
                        "format": "PKBarcodeFormatQR",
                        "messageEncoding": "iso-8859-1",
                        "altText": "40817263"
                    }
                ],
                "organizationName": "Tidepool Aquarium",
                "description": "Tidepool Aquarium family membership",
                "logoText": "Tidepool",
                "foregroundColor": "rgb(16, 24, 32)",
                "labelColor": "rgb(40, 72, 96)",
                "backgroundColor": "rgb(120, 200, 214)",
                "expirationDate": "2027-03-31T23:59-07:00",
                "locations": [
                    {
                        "latitude": 36.6182,
                        "longitude": -121.9017,
                        "relevantText": "Welcome back to Tidepool Aquarium"
                    }
                ],
                "featuredActions": [
                    {
                        "identifier": "member-benefits",
                        "type": "membershipBenefits",
                        "url": "https://www.example.org/tidepool/membership/benefits"
                    },
                    {
                        "identifier": "visit",
                        "type": "place",
                        "url": "https://maps.apple.com/?q=Tidepool%20Aquarium&ll=36.6182,-121.9017"
                    }
                ],
                "posterGeneric": {
                    "headerFields": [
                        {
                            "key": "member-number",
                            "label": "Member No.",
                            "value": "40817263"
                        }
                    ],
                    "primaryFields": [
                        {
                            "key": "member-name",
                            "value": "Ines Okafor"
                        },
                        {
                            "key": "member-level",
                            "label": "Level",
                            "value": "Family"
                        }
                    ],
                    "footerFields": [
                        {
                            "key": "member-type",
                            "value": "2 adults, 3 children"
                        }
                    ],
                    "backFields": [
                        {
                            "key": "guest-services",
                            "label": "Guest services",
                            "value": "+1 555 010 0163"
                        },
                        {
                            "key": "terms",
                            "label": "Membership terms",
                            "value": "Admits the named members. Not transferable. Renews every April."
                        }
                    ],
                    "additionalInfoFields": [
                        {
                            "key": "hours",
                            "label": "Hours",
                            "value": "Daily 9:30 AM to 6:00 PM"
                        }
                    ]
                },
                "generic": {
                    "primaryFields": [
                        {
                            "key": "member-name",
                            "label": "Name",
                            "value": "Ines Okafor"
                        }
                    ],
                    "secondaryFields": [
                        {
                            "key": "member-number",
                            "label": "Member No.",
                            "value": "40817263"
                        },
                        {
                            "key": "member-level",
                            "label": "Level",
                            "value": "Family"
                        }
                    ],
                    "auxiliaryFields": [
                        {
                            "key": "member-since",
                            "dateStyle": "PKDateStyleShort",
                            "label": "Joined",
                            "value": "2026-01-05T00:00-07:00"
                        },
                        {
                            "key": "renews",
                            "dateStyle": "PKDateStyleMedium",
                            "isRelative": true,
                            "label": "Renews",
                            "value": "2027-04-01T00:00-07:00"
                        }
                    ],
                    "backFields": [
                        {
                            "key": "guest-services",
                            "label": "Guest services",
                            "value": "+1 555 010 0163"
                        },
                        {
                            "key": "terms",
                            "label": "Membership terms",
                            "value": "Admits the named members. Not transferable. Renews every April."
                        }
                    ]
                }
            }
            """#
        ),
        // Mirrors "Creating a store card pass", with NFC, featured actions, a balance tag and an iOS 27 EAN-13
        // barcode before a Code 128 fallback. Fixes in Apple's sample: barcodes was an object, teamIdentifier had 8
        // characters, commas were missing, a value held raw line breaks, and currencyCode sat on the string "10".
        (
            name: "store-card",
            json: #"""
            {
                "formatVersion": 1,
                "passTypeIdentifier": "pass.net.example.ember-roasters.rewards",
                "serialNumber": "ER-5521-0093",
                "teamIdentifier": "E5F7G9H2J4",
                "webServiceURL": "https://wallet.example.net:8443/ember/passes/",
                "authenticationToken": "u6Yh3Tg8Rf1Ed5Ws9Qa2Zx7C",
                "barcodes": [
                    {
                        "message": "4027183055265",
                        "format": "PKBarcodeFormatEAN13",
                        "messageEncoding": "iso-8859-1",
                        "altText": "4027183055265"
                    },
                    {
                        "message": "4027183055265",
                        "format": "PKBarcodeFormatCode128",
                        "messageEncoding": "iso-8859-1"
                    }
                ],
                "nfc": {
                    "message": "ember:rewards:5521-0093",
                    "encryptionPublicKey": "MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEnin/1d8aEX6Cl3kI0lJu\#
            kmz4c5Ee9WuiiwlfrOsQ+G+bh/B7JEAUtLw+UQTFaqHvTT33UIDgTsMBsaCw/2LL8g=="
                },
                "organizationName": "Ember Roasters",
                "description": "Ember Roasters rewards card",
                "logoText": "Ember Roasters",
                "foregroundColor": "rgb(246, 214, 150)",
                "labelColor": "rgb(214, 170, 120)",
                "backgroundColor": "rgb(58, 32, 24)",
                "locations": [
                    {
                        "latitude": 52.5208,
                        "longitude": 13.4094,
                        "relevantText": "Ember Roasters Mitte is around the corner"
                    },
                    {
                        "latitude": 52.4986,
                        "longitude": 13.4183,
                        "relevantText": "Ember Roasters Kreuzberg is nearby"
                    }
                ],
                "maxDistance": 120,
                "featuredActions": [
                    {
                        "identifier": "top-up",
                        "type": "addToBalance",
                        "url": "https://www.example.net/ember/top-up"
                    },
                    {
                        "identifier": "order-ahead",
                        "type": "order",
                        "url": "https://www.example.net/ember/order"
                    }
                ],
                "semantics": {
                    "balance": {
                        "amount": "18.50",
                        "currencyCode": "EUR"
                    }
                },
                "storeCard": {
                    "headerFields": [
                        {
                            "key": "next-reward",
                            "label": "Next reward",
                            "value": 0.62,
                            "numberStyle": "PKNumberStylePercent",
                            "textAlignment": "PKTextAlignmentRight"
                        }
                    ],
                    "primaryFields": [
                        {
                            "key": "balance",
                            "label": "Card balance",
                            "value": 18.5,
                            "currencyCode": "EUR",
                            "changeMessage": "Your balance is now %@"
                        }
                    ],
                    "auxiliaryFields": [
                        {
                            "key": "roast-level",
                            "label": "Roast level",
                            "value": "Dark roast",
                            "changeMessage": "You reached %@"
                        },
                        {
                            "key": "beans",
                            "label": "Beans",
                            "value": 1240,
                            "numberStyle": "PKNumberStyleDecimal"
                        }
                    ],
                    "backFields": [
                        {
                            "key": "member-since",
                            "label": "Member since",
                            "value": "2024-02-11T09:00+01:00",
                            "dateStyle": "PKDateStyleLong",
                            "timeStyle": "PKDateStyleNone",
                            "isRelative": false
                        },
                        {
                            "key": "app",
                            "label": "Manage your card",
                            "value": "Open the Ember app",
                            "attributedValue": "<a href='https://www.example.net/ember/app'>Open the Ember app</a>"
                        },
                        {
                            "key": "terms",
                            "label": "Rewards terms",
                            "value": "Every 100 beans earn a free drink. Balances never expire."
                        }
                    ]
                }
            }
            """#
        ),
        // Mirrors "Creating a coupon pass", with iOS 27 Code 39 and Interleaved 2 of 5 barcodes before an Aztec
        // fallback. Fixes in Apple's sample: barcodes was an object, teamIdentifier had 8 characters, a comma was
        // missing and the terms value held raw line breaks.
        (
            name: "coupon",
            json: #"""
            {
                "formatVersion": 1,
                "passTypeIdentifier": "pass.com.example.fernwood.spring-coupon",
                "serialNumber": "FW-SPRING-000419",
                "teamIdentifier": "C8D2F6G4H1",
                "webServiceURL": "https://coupons.example.com/fernwood/",
                "authenticationToken": "r2Tb7Lm4Xq9Wc1Vz6Hn3Kd8J",
                "barcodes": [
                    {
                        "message": "FWSPRING25",
                        "format": "PKBarcodeFormatCode39",
                        "messageEncoding": "iso-8859-1",
                        "altText": "FWSPRING25"
                    },
                    {
                        "message": "04192027",
                        "format": "PKBarcodeFormatI2of5",
                        "messageEncoding": "iso-8859-1"
                    },
                    {
                        "message": "FWSPRING25",
                        "format": "PKBarcodeFormatAztec",
                        "messageEncoding": "iso-8859-1"
                    }
                ],
                "organizationName": "Fernwood Garden Supply",
                "description": "Fernwood spring bulb coupon",
                "logoText": "Fernwood",
                "foregroundColor": "rgb(255, 248, 220)",
                "backgroundColor": "rgb(52, 110, 64)",
                "expirationDate": "2027-04-30T21:00-04:00",
                "locations": [
                    {
                        "latitude": 42.3736,
                        "longitude": -71.1097,
                        "relevantText": "Spring bulbs are 25% off at Fernwood"
                    },
                    {
                        "latitude": 42.3398,
                        "longitude": -71.0892,
                        "altitude": 12.5,
                        "relevantText": "Your Fernwood coupon works here too"
                    }
                ],
                "maxDistance": 200,
                "relevantDates": [
                    {
                        "startDate": "2027-04-24T08:00-04:00",
                        "endDate": "2027-04-24T20:00-04:00"
                    },
                    {
                        "date": "2027-04-29T09:00-04:00"
                    }
                ],
                "userInfo": {
                    "campaign": "spring-bulbs-2027",
                    "segments": ["garden-club", "newsletter"],
                    "discountPercent": 25
                },
                "coupon": {
                    "primaryFields": [
                        {
                            "key": "offer",
                            "label": "All spring bulbs",
                            "value": "25% off"
                        }
                    ],
                    "secondaryFields": [
                        {
                            "key": "store",
                            "label": "Valid at",
                            "value": "Any Fernwood store"
                        }
                    ],
                    "auxiliaryFields": [
                        {
                            "key": "expires",
                            "label": "EXPIRES",
                            "value": "2027-04-30T21:00-04:00",
                            "isRelative": true,
                            "dateStyle": "PKDateStyleShort"
                        }
                    ],
                    "backFields": [
                        {
                            "key": "customer-service",
                            "label": "Customer service",
                            "value": "(555) 010-0177",
                            "dataDetectorTypes": ["PKDataDetectorTypePhoneNumber"]
                        },
                        {
                            "key": "terms",
                            "label": "Terms and conditions",
                            "value": "One use per customer. Not valid on gift cards or prior purchases.",
                            "dataDetectorTypes": []
                        }
                    ]
                }
            }
            """#
        ),
        // Mirrors Apple's classic sample boarding pass, the pass "Creating the Source for a Pass" and "Building a
        // Pass" assemble, with the relevance keys of "Showing a Pass on the Lock Screen" (locations, beacons): the
        // deprecated relevantDate and barcode are kept beside relevantDates and barcodes for older iOS.
        (
            name: "boarding-pass-train",
            json: #"""
            {
                "formatVersion": 1,
                "passTypeIdentifier": "pass.com.example.atlantico-rail.ticket",
                "serialNumber": "AR-20260612-0734-C4-52",
                "teamIdentifier": "P9L2M7N4Q1",
                "webServiceURL": "https://rail.example.com/atlantico/wallet/",
                "authenticationToken": "a7c4e1b8d2f5a9c3e6b0d4f7",
                "relevantDate": "2026-06-12T08:39+01:00",
                "relevantDates": [
                    {
                        "date": "2026-06-12T08:39+01:00"
                    }
                ],
                "locations": [
                    {
                        "longitude": -9.0990,
                        "latitude": 38.7678,
                        "relevantText": "Platform 4 for the 08:39 to Porto"
                    }
                ],
                "beacons": [
                    {
                        "proximityUUID": "6E3B0A52-4F1C-4B8E-9D27-0C5A1F3E8B90",
                        "major": 734,
                        "minor": 4,
                        "relevantText": "Car 4 boards here"
                    }
                ],
                "barcode": {
                    "message": "AR|20260612|0734|LIS|PRT|C4|S52",
                    "format": "PKBarcodeFormatQR",
                    "messageEncoding": "iso-8859-1",
                    "altText": "0734 C4 52"
                },
                "barcodes": [
                    {
                        "message": "AR|20260612|0734|LIS|PRT|C4|S52",
                        "format": "PKBarcodeFormatQR",
                        "messageEncoding": "iso-8859-1",
                        "altText": "0734 C4 52"
                    }
                ],
                "organizationName": "Atlantico Rail",
                "description": "Atlantico Rail ticket, Lisbon to Porto",
                "logoText": "Atlantico Rail",
                "foregroundColor": "rgb(255, 255, 255)",
                "labelColor": "rgb(170, 210, 240)",
                "backgroundColor": "rgb(0, 86, 140)",
                "groupingIdentifier": "AR-20260612-LX7Q",
                "associatedStoreIdentifiers": [6743045678],
                "appLaunchURL": "atlanticorail://tickets/AR-20260612-0734-C4-52",
                "boardingPass": {
                    "headerFields": [
                        {
                            "key": "train",
                            "label": "Train",
                            "value": "AR 734"
                        },
                        {
                            "key": "car",
                            "label": "Car",
                            "value": "4",
                            "changeMessage": "Your car is now %@"
                        }
                    ],
                    "primaryFields": [
                        {
                            "key": "origin",
                            "label": "Lisbon",
                            "value": "LIS"
                        },
                        {
                            "key": "destination",
                            "label": "Porto",
                            "value": "PRT"
                        }
                    ],
                    "secondaryFields": [
                        {
                            "key": "passenger",
                            "label": "Passenger",
                            "value": "Joana Reis"
                        },
                        {
                            "key": "seat",
                            "label": "Seat",
                            "value": "52"
                        }
                    ],
                    "auxiliaryFields": [
                        {
                            "key": "departs",
                            "label": "Departs",
                            "value": "2026-06-12T08:39+01:00",
                            "dateStyle": "PKDateStyleNone",
                            "timeStyle": "PKDateStyleShort",
                            "ignoresTimeZone": true
                        },
                        {
                            "key": "arrives",
                            "label": "Arrives",
                            "value": "2026-06-12T11:28+01:00",
                            "dateStyle": "PKDateStyleNone",
                            "timeStyle": "PKDateStyleShort",
                            "ignoresTimeZone": true
                        },
                        {
                            "key": "class",
                            "label": "Class",
                            "value": "2nd",
                            "textAlignment": "PKTextAlignmentRight"
                        }
                    ],
                    "backFields": [
                        {
                            "key": "fare",
                            "label": "Fare paid",
                            "value": 31.4,
                            "currencyCode": "EUR"
                        },
                        {
                            "key": "booked",
                            "label": "Booked",
                            "value": "2026-05-28T14:02+01:00",
                            "dateStyle": "PKDateStyleLong",
                            "timeStyle": "PKDateStyleShort"
                        },
                        {
                            "key": "help",
                            "label": "Customer care",
                            "value": "Call +351 555 010 777 or visit https://rail.example.com/help.",
                            "dataDetectorTypes": ["PKDataDetectorTypePhoneNumber", "PKDataDetectorTypeLink"]
                        }
                    ],
                    "transitType": "PKTransitTypeTrain"
                },
                "semantics": {
                    "transitProvider": "Atlantico Rail",
                    "vehicleType": "Intercity",
                    "vehicleNumber": "734",
                    "carNumber": "4",
                    "confirmationNumber": "LX7Q",
                    "departureStationName": "Lisboa Oriente",
                    "departurePlatform": "4",
                    "destinationStationName": "Porto Campanha",
                    "originalDepartureDate": "2026-06-12T08:39+01:00",
                    "originalArrivalDate": "2026-06-12T11:28+01:00",
                    "passengerName": {
                        "givenName": "Joana",
                        "familyName": "Reis"
                    },
                    "seats": [
                        {
                            "seatNumber": "52",
                            "seatType": "Window"
                        }
                    ],
                    "totalPrice": {
                        "amount": "31.40",
                        "currencyCode": "EUR"
                    }
                }
            }
            """#
        ),
        // Mirrors "Supporting semantic tags in Wallet passes": a movie ticket with semantics at the top level and in
        // its fields (Wallet reads both the same way).
        (
            name: "event-ticket-movie-field-semantics",
            json: #"""
            {
                "formatVersion": 1,
                "passTypeIdentifier": "pass.com.example.aurora-cinemas.ticket",
                "serialNumber": "AUR-4-20261121-1915-F7",
                "teamIdentifier": "A1B2C3D4E5",
                "organizationName": "Aurora Cinemas",
                "description": "Aurora Cinemas movie ticket",
                "logoText": "Aurora Cinemas",
                "foregroundColor": "rgb(255, 255, 255)",
                "labelColor": "rgb(255, 196, 0)",
                "backgroundColor": "rgb(24, 24, 32)",
                "groupingIdentifier": "aurora-20261121-1915",
                "relevantDate": "2026-11-21T19:15-08:00",
                "relevantDates": [
                    {
                        "startDate": "2026-11-21T18:30-08:00",
                        "endDate": "2026-11-21T21:15-08:00"
                    }
                ],
                "barcodes": [
                    {
                        "message": "AUR|4|20261121T1915|F7,F8",
                        "format": "PKBarcodeFormatQR",
                        "messageEncoding": "iso-8859-1",
                        "altText": "F7, F8"
                    }
                ],
                "semantics": {
                    "eventType": "PKEventTypeMovie",
                    "silenceRequested": true
                },
                "eventTicket": {
                    "headerFields": [
                        {
                            "key": "rating",
                            "label": "Rated",
                            "value": "PG"
                        }
                    ],
                    "primaryFields": [
                        {
                            "key": "film",
                            "label": "Aurora Cinemas",
                            "value": "The Lantern Keeper",
                            "semantics": {
                                "eventName": "The Lantern Keeper",
                                "venueName": "Aurora Cinemas, Screen 4",
                                "venueLocation": {
                                    "latitude": 37.7793,
                                    "longitude": -122.4193
                                }
                            }
                        }
                    ],
                    "secondaryFields": [
                        {
                            "key": "runtime",
                            "label": "Run time",
                            "value": "1:48",
                            "semantics": {
                                "eventStartDate": "2026-11-21T19:15-08:00",
                                "eventEndDate": "2026-11-21T21:03-08:00"
                            }
                        },
                        {
                            "key": "showtime",
                            "label": "Showtime",
                            "value": "2026-11-21T19:15-08:00",
                            "dateStyle": "PKDateStyleShort",
                            "timeStyle": "PKDateStyleShort"
                        }
                    ],
                    "auxiliaryFields": [
                        {
                            "key": "screen",
                            "label": "Screen",
                            "value": "4"
                        },
                        {
                            "key": "seats",
                            "label": "Seats",
                            "value": "F7, F8",
                            "semantics": {
                                "seats": [
                                    {
                                        "seatRow": "F",
                                        "seatNumber": "7",
                                        "seatIdentifier": "F07"
                                    },
                                    {
                                        "seatRow": "F",
                                        "seatNumber": "8",
                                        "seatIdentifier": "F08"
                                    }
                                ]
                            }
                        }
                    ],
                    "backFields": [
                        {
                            "key": "snacks",
                            "label": "Concessions",
                            "value": "Pre-order snacks online",
                            "attributedValue": "<a href='https://www.example.com/aurora/snacks'>Pre-order snacks</a>"
                        },
                        {
                            "key": "policy",
                            "label": "Admission policy",
                            "value": "Valid only for the showtime above. Doors close 15 minutes after it."
                        }
                    ]
                }
            }
            """#
        ),
        // Mirrors "Creating a pass with Pass Designer": a .pkpasstemplate's pass.json as Apple's pass-builder (whose
        // model Pass Designer shares) encodes it: sorted keys, "key" : value, escaped slashes, UTC dates, rgb()
        // without spaces, an _id in every field and action (not Wallet keys; they round-trip). pass-builder would
        // also write PKTextAlignmentNatural on primary fields, where Apple allows no textAlignment: left off there.
        (
            name: "pass-designer-template",
            json: #"""
            {
              "backgroundColor" : "rgb(28,28,30)",
              "barcodes" : [
                {
                  "altText" : "PK-001942",
                  "format" : "PKBarcodeFormatPDF417",
                  "message" : "PK-001942",
                  "messageEncoding" : "iso-8859-1"
                }
              ],
              "description" : "Paddock Kennel Club membership",
              "featuredActions" : [
                {
                  "_id" : "0ED4E7CE-B31B-4220-8097-7BCAF5811890",
                  "identifier" : "benefits",
                  "type" : "membershipBenefits",
                  "url" : "https:\/\/www.example.com\/paddock\/benefits"
                }
              ],
              "foregroundColor" : "rgb(255,255,255)",
              "formatVersion" : 1,
              "labelColor" : "rgb(174,174,178)",
              "logoSymbolName" : "pawprint.fill",
              "logoText" : "Paddock Kennel Club",
              "organizationName" : "Paddock Kennel Club",
              "passTypeIdentifier" : "pass.com.example.paddock.membership",
              "posterGeneric" : {
                "footerFields" : [
                  {
                    "_id" : "3EB0CDAD-BA76-4606-89FA-BFA310303259",
                    "key" : "FAVORITE",
                    "label" : "Favorite",
                    "textAlignment" : "PKTextAlignmentNatural",
                    "value" : "Tennis balls"
                  }
                ],
                "headerFields" : [
                  {
                    "_id" : "6476D179-251E-421C-800A-0A520C460E77",
                    "key" : "MEMBER_NO",
                    "label" : "Member",
                    "textAlignment" : "PKTextAlignmentNatural",
                    "value" : "PK-001942"
                  }
                ],
                "primaryFields" : [
                  {
                    "_id" : "E2E034D9-715F-4FF7-8D21-A6198294652C",
                    "key" : "PET_NAME",
                    "value" : "Biscuit"
                  }
                ]
              },
              "serialNumber" : "PK-001942",
              "storeCard" : {
                "auxiliaryFields" : [
                  {
                    "_id" : "F6CC5A37-C33E-43FB-B5C2-8CF698B14297",
                    "dateStyle" : "PKDateStyleMedium",
                    "key" : "JOINED",
                    "label" : "Joined",
                    "textAlignment" : "PKTextAlignmentNatural",
                    "value" : "2026-03-14T17:00:00Z"
                  }
                ],
                "headerFields" : [
                  {
                    "_id" : "CA1E1EA5-8B4C-4F0E-BD32-15E8945F23D9",
                    "key" : "MEMBER_NO",
                    "label" : "Member",
                    "textAlignment" : "PKTextAlignmentNatural",
                    "value" : "PK-001942"
                  }
                ],
                "primaryFields" : [
                  {
                    "_id" : "C54D68D4-AA3A-47CF-8F38-6F2429360756",
                    "key" : "PET_NAME",
                    "value" : "Biscuit"
                  }
                ],
                "secondaryFields" : [
                  {
                    "_id" : "EA52B324-453A-4F87-B213-5563F8551BB9",
                    "key" : "FAVORITE",
                    "label" : "Favorite",
                    "textAlignment" : "PKTextAlignmentNatural",
                    "value" : "Tennis balls"
                  }
                ]
              },
              "stripColor" : "rgb(255,149,0)",
              "teamIdentifier" : "D4G7J1K5N8"
            }
            """#
        ),
        // Mirrors the "Pass" reference page's generic pass keys, plus keys no current iOS knows: a top-level
        // futureFeature object and flag, a futureSemanticTag, unknown keys in a field, a style, a barcode and a
        // location. Wallet ignores them; Coffer must keep each one, at its depth, when it decodes and encodes.
        (
            name: "generic-with-future-keys",
            json: #"""
            {
                "formatVersion": 1,
                "passTypeIdentifier": "pass.org.example.northside-makers.member",
                "serialNumber": "NM-0418",
                "teamIdentifier": "F3H6K9M2P5",
                "organizationName": "Northside Makerspace",
                "description": "Northside Makerspace member card",
                "logoText": "Northside Makers",
                "foregroundColor": "rgb(20, 20, 20)",
                "labelColor": "rgb(90, 70, 0)",
                "backgroundColor": "rgb(255, 204, 0)",
                "sharingProhibited": false,
                "voided": false,
                "expirationDate": "2027-01-31T23:59+00:00",
                "maxDistance": 50,
                "locations": [
                    {
                        "latitude": 53.4794,
                        "longitude": -2.2453,
                        "altitude": 38.5,
                        "relevantText": "Tap in at the Northside front desk",
                        "futureLocationRadius": 25
                    }
                ],
                "beacons": [
                    {
                        "proximityUUID": "2F9A7C14-8E3B-4D61-A0C5-7B2E9F4D1A36",
                        "major": 1,
                        "relevantText": "Welcome to the workshop floor"
                    }
                ],
                "barcodes": [
                    {
                        "message": "NM-0418",
                        "format": "PKBarcodeFormatAztec",
                        "messageEncoding": "utf-8",
                        "futureRenderingHint": "high-contrast"
                    }
                ],
                "generic": {
                    "headerFields": [
                        {
                            "key": "level",
                            "label": "Level",
                            "value": "Keyholder"
                        }
                    ],
                    "primaryFields": [
                        {
                            "key": "member",
                            "label": "Member",
                            "value": "Priya Nandakumar"
                        }
                    ],
                    "secondaryFields": [
                        {
                            "key": "number",
                            "label": "Member number",
                            "value": 418,
                            "numberStyle": "PKNumberStyleSpellOut"
                        }
                    ],
                    "auxiliaryFields": [
                        {
                            "key": "induction",
                            "label": "Inducted on",
                            "value": "Laser cutter",
                            "futureFieldBadge": {
                                "symbol": "bolt.fill",
                                "tint": "rgb(255, 59, 48)"
                            }
                        }
                    ],
                    "backFields": [
                        {
                            "key": "rules",
                            "label": "House rules",
                            "value": "Sign in on arrival, wear eye protection and leave each bench clean."
                        }
                    ],
                    "futureFieldList": [
                        {
                            "key": "tool-access",
                            "value": "Wood shop"
                        }
                    ]
                },
                "semantics": {
                    "totalPrice": {
                        "amount": "120.00",
                        "currencyCode": "GBP"
                    },
                    "futureSemanticTag": {
                        "kind": "makerspace",
                        "tools": ["laser cutter", "lathe"],
                        "since": "2026-02-01T10:00+00:00"
                    }
                },
                "userInfo": {
                    "memberID": 418,
                    "interests": ["woodwork", "electronics"]
                },
                "futureFeature": {
                    "enabled": true,
                    "version": 2,
                    "options": {
                        "layout": "compact",
                        "accents": ["rgb(0, 0, 0)", "rgb(255, 255, 255)"],
                        "nothing": null
                    }
                },
                "futureTopLevelFlag": true
            }
            """#
        ),
    ]
}
