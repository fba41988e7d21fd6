#if canImport(Security)
    import Foundation
    import Secrets
    import Security

    /// The Security framework's SecItem functions behind ``SecItemClient``: turns each ``KeychainQuery`` property
    /// into its `kSec…` key, and the results back into ``KeychainItem``s. Nothing else happens here.
    package struct LiveSecItemClient: SecItemClient {
        /// Creates the client.
        package init() {}

        /// `SecItemAdd`.
        package func add(_ attributes: KeychainQuery) -> KeychainStatus {
            guard let dictionary = Self.dictionary(attributes) else { return .param }
            return KeychainStatus(rawValue: SecItemAdd(dictionary as CFDictionary, nil))
        }

        /// `SecItemCopyMatching`.
        package func copyMatching(_ query: KeychainQuery) -> Result<[KeychainItem], KeychainStatusError> {
            guard let dictionary = Self.dictionary(query) else { return .failure(KeychainStatusError(.param)) }
            var result: CFTypeRef?
            let status = KeychainStatus(rawValue: SecItemCopyMatching(dictionary as CFDictionary, &result))
            guard status == .success else { return .failure(KeychainStatusError(status)) }
            let dictionaries: [[String: Any]]
            if let many = result as? [[String: Any]] {
                dictionaries = many
            } else if let one = result as? [String: Any] {
                dictionaries = [one]
            } else if let data = result as? Data {
                // kSecReturnData alone: the bytes of the one item the query names.
                return .success([
                    KeychainItem(
                        service: query.service ?? "", account: query.account ?? "",
                        accessGroup: query.accessGroup ?? "",
                        synchronizable: query.synchronizable == .synchronizable,
                        accessibility: query.accessibility ?? .whenUnlocked, data: data, itemClass: query.itemClass,
                        internet: query.internet)
                ])
            } else {
                return .failure(KeychainStatusError(.decode))
            }
            return .success(dictionaries.map { Self.item($0, of: query.itemClass) })
        }

        /// `SecItemUpdate`.
        package func update(_ query: KeychainQuery, with changes: KeychainQuery) -> KeychainStatus {
            guard var attributes = Self.dictionary(changes), let match = Self.dictionary(query) else { return .param }
            attributes.removeValue(forKey: kSecClass as String)
            attributes.removeValue(forKey: kSecUseDataProtectionKeychain as String)
            return KeychainStatus(rawValue: SecItemUpdate(match as CFDictionary, attributes as CFDictionary))
        }

        /// `SecItemDelete`.
        package func delete(_ query: KeychainQuery) -> KeychainStatus {
            guard let dictionary = Self.dictionary(query) else { return .param }
            return KeychainStatus(rawValue: SecItemDelete(dictionary as CFDictionary))
        }

        // MARK: Mapping

        /// The SecItem dictionary, or `nil` when the protection cannot be written as asked (the caller answers
        /// `errSecParam`: an item is never stored with less protection than its query names).
        private static func dictionary(_ query: KeychainQuery) -> [String: Any]? {
            var dictionary: [String: Any] = [
                kSecClass as String: query.itemClass == .internetPassword
                    ? kSecClassInternetPassword : kSecClassGenericPassword
            ]
            if let service = query.service { dictionary[kSecAttrService as String] = service }
            if let internet = query.internet {
                dictionary[kSecAttrServer as String] = internet.server
                if let value = internet.internetProtocol {
                    dictionary[kSecAttrProtocol as String] = constant(for: value)
                }
                if let type = internet.authenticationType {
                    dictionary[kSecAttrAuthenticationType as String] = constant(for: type)
                }
                if let port = internet.port { dictionary[kSecAttrPort as String] = port }
            }
            if let account = query.account { dictionary[kSecAttrAccount as String] = account }
            if let group = query.accessGroup { dictionary[kSecAttrAccessGroup as String] = group }
            switch query.synchronizable {
            case .synchronizable?: dictionary[kSecAttrSynchronizable as String] = kCFBooleanTrue
            case .notSynchronizable?: dictionary[kSecAttrSynchronizable as String] = kCFBooleanFalse
            case .any?: dictionary[kSecAttrSynchronizable as String] = kSecAttrSynchronizableAny
            case nil: break
            }
            switch query.protection(on: .current) {
            case .success(.unspecified):
                break
            case .success(.accessible(let accessibility)):
                dictionary[kSecAttrAccessible as String] = constant(for: accessibility)
            case .success(.accessControl(let accessibility, let control)):
                guard let access = accessControl(accessibility, control) else { return nil }
                dictionary[kSecAttrAccessControl as String] = access
            case .failure:
                return nil
            }
            if let data = query.data { dictionary[kSecValueData as String] = data }
            switch query.matchLimit {
            case .one?: dictionary[kSecMatchLimit as String] = kSecMatchLimitOne
            case .all?: dictionary[kSecMatchLimit as String] = kSecMatchLimitAll
            case nil: break
            }
            if query.returnData { dictionary[kSecReturnData as String] = true }
            if query.returnAttributes { dictionary[kSecReturnAttributes as String] = true }
            if query.returnPersistentReference { dictionary[kSecReturnPersistentRef as String] = true }
            if let reference = query.persistentReference {
                #if os(macOS)
                    dictionary[kSecMatchItemList as String] = [reference]
                #else
                    dictionary[kSecValuePersistentRef as String] = reference
                #endif
            }
            if query.usesDataProtectionKeychain { dictionary[kSecUseDataProtectionKeychain as String] = true }
            #if canImport(LocalAuthentication)
                if let authentication = query.authentication {
                    dictionary[kSecUseAuthenticationContext as String] =
                        authentication.session { LiveAuthentication(authentication) }.context
                }
            #endif
            return dictionary
        }

        private static func item(_ attributes: [String: Any], of itemClass: KeychainQuery.ItemClass) -> KeychainItem {
            let protection = attributes[kSecAttrAccessible as String] as? String
            var internet: InternetPasswordAttributes?
            if itemClass == .internetPassword {
                let port = attributes[kSecAttrPort as String] as? Int ?? 0
                let protocolValue = attributes[kSecAttrProtocol as String] as? String
                let typeValue = attributes[kSecAttrAuthenticationType as String] as? String
                internet = InternetPasswordAttributes(
                    server: attributes[kSecAttrServer as String] as? String ?? "",
                    internetProtocol: KeychainInternetProtocol.allCases.first {
                        (constant(for: $0) as String) == protocolValue
                    },
                    authenticationType: KeychainAuthenticationType.allCases.first {
                        (constant(for: $0) as String) == typeValue
                    },
                    port: port == 0 ? nil : port)
            }
            return KeychainItem(
                service: attributes[kSecAttrService as String] as? String ?? "",
                account: attributes[kSecAttrAccount as String] as? String ?? "",
                accessGroup: attributes[kSecAttrAccessGroup as String] as? String ?? "",
                synchronizable: (attributes[kSecAttrSynchronizable as String] as? Bool) ?? false,
                accessibility: AccessPolicy.Accessibility.allCases.first {
                    (constant(for: $0) as String) == protection
                } ?? .whenUnlocked,
                data: attributes[kSecValueData as String] as? Data, itemClass: itemClass, internet: internet,
                persistentReference: attributes[kSecValuePersistentRef as String] as? Data)
        }

        /// The `SecAccessControl` of `accessibility` with `control`'s flags, or `nil` when a flag does not exist
        /// here or Security refuses them together.
        static func accessControl(
            _ accessibility: AccessPolicy.Accessibility, _ control: AccessPolicy.AccessControl
        ) -> SecAccessControl? {
            guard let flags = flags(for: control) else { return nil }
            return SecAccessControlCreateWithFlags(nil, constant(for: accessibility), flags, nil)
        }

        private static func constant(for value: KeychainInternetProtocol) -> CFString {
            switch value {
            case .ftp: return kSecAttrProtocolFTP
            case .ftpAccount: return kSecAttrProtocolFTPAccount
            case .http: return kSecAttrProtocolHTTP
            case .irc: return kSecAttrProtocolIRC
            case .nntp: return kSecAttrProtocolNNTP
            case .pop3: return kSecAttrProtocolPOP3
            case .smtp: return kSecAttrProtocolSMTP
            case .socks: return kSecAttrProtocolSOCKS
            case .imap: return kSecAttrProtocolIMAP
            case .ldap: return kSecAttrProtocolLDAP
            case .appleTalk: return kSecAttrProtocolAppleTalk
            case .afp: return kSecAttrProtocolAFP
            case .telnet: return kSecAttrProtocolTelnet
            case .ssh: return kSecAttrProtocolSSH
            case .ftps: return kSecAttrProtocolFTPS
            case .https: return kSecAttrProtocolHTTPS
            case .httpProxy: return kSecAttrProtocolHTTPProxy
            case .httpsProxy: return kSecAttrProtocolHTTPSProxy
            case .ftpProxy: return kSecAttrProtocolFTPProxy
            case .smb: return kSecAttrProtocolSMB
            case .rtsp: return kSecAttrProtocolRTSP
            case .rtspProxy: return kSecAttrProtocolRTSPProxy
            case .daap: return kSecAttrProtocolDAAP
            case .eppc: return kSecAttrProtocolEPPC
            case .ipp: return kSecAttrProtocolIPP
            case .nntps: return kSecAttrProtocolNNTPS
            case .ldaps: return kSecAttrProtocolLDAPS
            case .telnetS: return kSecAttrProtocolTelnetS
            case .imaps: return kSecAttrProtocolIMAPS
            case .ircs: return kSecAttrProtocolIRCS
            case .pop3S: return kSecAttrProtocolPOP3S
            }
        }

        private static func constant(for value: KeychainAuthenticationType) -> CFString {
            switch value {
            case .ntlm: return kSecAttrAuthenticationTypeNTLM
            case .msn: return kSecAttrAuthenticationTypeMSN
            case .dpa: return kSecAttrAuthenticationTypeDPA
            case .rpa: return kSecAttrAuthenticationTypeRPA
            case .httpBasic: return kSecAttrAuthenticationTypeHTTPBasic
            case .httpDigest: return kSecAttrAuthenticationTypeHTTPDigest
            case .htmlForm: return kSecAttrAuthenticationTypeHTMLForm
            case .default: return kSecAttrAuthenticationTypeDefault
            }
        }

        private static func constant(for accessibility: AccessPolicy.Accessibility) -> CFString {
            switch accessibility {
            case .whenUnlocked: return kSecAttrAccessibleWhenUnlocked
            case .whenUnlockedThisDeviceOnly: return kSecAttrAccessibleWhenUnlockedThisDeviceOnly
            case .afterFirstUnlock: return kSecAttrAccessibleAfterFirstUnlock
            case .afterFirstUnlockThisDeviceOnly: return kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly
            case .whenPasscodeSetThisDeviceOnly: return kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly
            // The deprecated classes map to their successors, as Apple advises.
            case .always: return kSecAttrAccessibleAfterFirstUnlock
            case .alwaysThisDeviceOnly: return kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly
            }
        }

        /// The Security flags for `control`, or `nil` when one of them does not exist here.
        private static func flags(for control: AccessPolicy.AccessControl) -> SecAccessControlCreateFlags? {
            var flags: SecAccessControlCreateFlags = []
            var mapped: AccessPolicy.AccessControl = []
            func map(_ flag: AccessPolicy.AccessControl, _ security: SecAccessControlCreateFlags) {
                if control.contains(flag) {
                    flags.insert(security)
                    mapped.insert(flag)
                }
            }
            map(.userPresence, .userPresence)
            map(.biometryAny, .biometryAny)
            map(.biometryCurrentSet, .biometryCurrentSet)
            map(.devicePasscode, .devicePasscode)
            #if os(macOS) || targetEnvironment(macCatalyst)
                map(.watch, .watch)
            #endif
            map(.or, .or)
            map(.and, .and)
            map(.applicationPassword, .applicationPassword)
            map(.privateKeyUsage, .privateKeyUsage)
            return mapped == control ? flags : nil
        }
    }
#endif
