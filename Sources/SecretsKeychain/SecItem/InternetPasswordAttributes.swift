/// What names an internet-password item (`kSecClassInternetPassword`) beside its account: the server, and the
/// protocol, authentication type and port when the item has them.
package struct InternetPasswordAttributes: Hashable, Sendable {
    /// `kSecAttrServer`: the host.
    package var server: String
    /// `kSecAttrProtocol`.
    package var internetProtocol: KeychainInternetProtocol?
    /// `kSecAttrAuthenticationType`.
    package var authenticationType: KeychainAuthenticationType?
    /// `kSecAttrPort`.
    package var port: Int?

    /// Creates the attributes; a `nil` one is absent (in a query: matches any).
    package init(
        server: String, internetProtocol: KeychainInternetProtocol? = nil,
        authenticationType: KeychainAuthenticationType? = nil,
        port: Int? = nil
    ) {
        self.server = server
        self.internetProtocol = internetProtocol
        self.authenticationType = authenticationType
        self.port = port
    }

    /// Whether an item with `item`'s attributes matches a query with these (absent ones match any).
    func matches(_ item: InternetPasswordAttributes) -> Bool {
        server == item.server && (internetProtocol.map { $0 == item.internetProtocol } ?? true)
            && (authenticationType.map { $0 == item.authenticationType } ?? true)
            && (port.map { $0 == item.port } ?? true)
    }
}

/// The protocol of an internet-password item: a `kSecAttrProtocol…` constant.
public enum KeychainInternetProtocol: String, Hashable, Sendable, CaseIterable {
    /// `kSecAttrProtocolFTP`.
    case ftp
    /// `kSecAttrProtocolFTPAccount`.
    case ftpAccount
    /// `kSecAttrProtocolHTTP`.
    case http
    /// `kSecAttrProtocolIRC`.
    case irc
    /// `kSecAttrProtocolNNTP`.
    case nntp
    /// `kSecAttrProtocolPOP3`.
    case pop3
    /// `kSecAttrProtocolSMTP`.
    case smtp
    /// `kSecAttrProtocolSOCKS`.
    case socks
    /// `kSecAttrProtocolIMAP`.
    case imap
    /// `kSecAttrProtocolLDAP`.
    case ldap
    /// `kSecAttrProtocolAppleTalk`.
    case appleTalk
    /// `kSecAttrProtocolAFP`.
    case afp
    /// `kSecAttrProtocolTelnet`.
    case telnet
    /// `kSecAttrProtocolSSH`.
    case ssh
    /// `kSecAttrProtocolFTPS`.
    case ftps
    /// `kSecAttrProtocolHTTPS`.
    case https
    /// `kSecAttrProtocolHTTPProxy`.
    case httpProxy
    /// `kSecAttrProtocolHTTPSProxy`.
    case httpsProxy
    /// `kSecAttrProtocolFTPProxy`.
    case ftpProxy
    /// `kSecAttrProtocolSMB`.
    case smb
    /// `kSecAttrProtocolRTSP`.
    case rtsp
    /// `kSecAttrProtocolRTSPProxy`.
    case rtspProxy
    /// `kSecAttrProtocolDAAP`.
    case daap
    /// `kSecAttrProtocolEPPC`.
    case eppc
    /// `kSecAttrProtocolIPP`.
    case ipp
    /// `kSecAttrProtocolNNTPS`.
    case nntps
    /// `kSecAttrProtocolLDAPS`.
    case ldaps
    /// `kSecAttrProtocolTelnetS`.
    case telnetS
    /// `kSecAttrProtocolIMAPS`.
    case imaps
    /// `kSecAttrProtocolIRCS`.
    case ircs
    /// `kSecAttrProtocolPOP3S`.
    case pop3S
}

/// The authentication type of an internet-password item: a `kSecAttrAuthenticationType…` constant.
public enum KeychainAuthenticationType: String, Hashable, Sendable, CaseIterable {
    /// `kSecAttrAuthenticationTypeNTLM`.
    case ntlm
    /// `kSecAttrAuthenticationTypeMSN`.
    case msn
    /// `kSecAttrAuthenticationTypeDPA`.
    case dpa
    /// `kSecAttrAuthenticationTypeRPA`.
    case rpa
    /// `kSecAttrAuthenticationTypeHTTPBasic`.
    case httpBasic
    /// `kSecAttrAuthenticationTypeHTTPDigest`.
    case httpDigest
    /// `kSecAttrAuthenticationTypeHTMLForm`.
    case htmlForm
    /// `kSecAttrAuthenticationTypeDefault`.
    case `default`
}
