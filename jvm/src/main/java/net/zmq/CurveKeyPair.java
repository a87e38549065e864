package net.zmq;

/**
 * A CURVE key pair as 40-character Z85 text. {@code secretKey} may be null for a certificate that holds only the
 * public key. {@link #toString()} never shows the secret key.
 */
public record CurveKeyPair(String publicKey, String secretKey) {
    /** @throws IllegalArgumentException a key is not 40 characters of Z85 */
    public CurveKeyPair {
        Curve.check(publicKey, "public key");
        if (secretKey != null) {
            Curve.check(secretKey, "secret key");
        }
    }

    @Override
    public String toString() {
        return "CurveKeyPair[publicKey=" + publicKey + (secretKey == null ? "" : ", secretKey=(hidden)") + "]";
    }
}
