/// What names an internet-password item (`kSecClassInternetPassword`) beside its account: the server, and the
/// protocol, authentication type and port when the item has them.
public struct InternetPasswordAttributes: Hashable, Sendable {
    /// A `kSecAttrProtocol…` constant.
    public enum InternetProtocol: String, Hashable, Sendable, CaseIterable {
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

    /// A `kSecAttrAuthenticationType…` constant.
    public enum AuthenticationType: String, Hashable, Sendable, CaseIterable {
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

    /// `kSecAttrServer`: the host.
    public var server: String
    /// `kSecAttrProtocol`.
    public var internetProtocol: InternetProtocol?
    /// `kSecAttrAuthenticationType`.
    public var authenticationType: AuthenticationType?
    /// `kSecAttrPort`.
    public var port: Int?

    /// Creates the attributes; a `nil` one is absent (in a query: matches any).
    public init(
        server: String, internetProtocol: InternetProtocol? = nil, authenticationType: AuthenticationType? = nil,
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
