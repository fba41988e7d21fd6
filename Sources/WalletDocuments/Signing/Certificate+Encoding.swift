import SwiftASN1
import X509

extension Certificate {
    /// The certificate in PEM.
    public func serializeAsPEMString() throws -> String {
        try serializeAsPEM().pemString
    }

    /// The certificate in DER.
    public func derBytes() throws -> [UInt8] {
        var serializer = DER.Serializer()
        try serializer.serialize(self)
        return serializer.serializedBytes
    }
}
