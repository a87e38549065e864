package net.zmq;

/** ZeroMQ's Z85 text encoding (RFC 32/Z85): 4 bytes to 5 printable characters, used for CURVE keys. */
public final class Z85 {
    private Z85() {
    }

    private static final String ALPHABET =
            "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-:+=^!/*?&<>()[]{}@%$#";
    private static final int[] DECODE = new int[128];

    static {
        java.util.Arrays.fill(DECODE, -1);
        for (int i = 0; i < ALPHABET.length(); i++) {
            DECODE[ALPHABET.charAt(i)] = i;
        }
    }

    /**
     * Encodes data (its length a multiple of 4).
     *
     * @throws IllegalArgumentException the length is not a multiple of 4
     */
    public static String encode(byte[] data) {
        if (data.length % 4 != 0) {
            throw new IllegalArgumentException("Z85 encodes whole groups of 4 bytes; got " + data.length + " bytes");
        }
        StringBuilder text = new StringBuilder(data.length / 4 * 5);
        for (int i = 0; i < data.length; i += 4) {
            long value = ((data[i] & 0xFFL) << 24) | ((data[i + 1] & 0xFFL) << 16) | ((data[i + 2] & 0xFFL) << 8) | (data[i + 3] & 0xFFL);
            char[] group = new char[5];
            for (int j = 4; j >= 0; j--) {
                group[j] = ALPHABET.charAt((int) (value % 85));
                value /= 85;
            }
            text.append(group);
        }
        return text.toString();
    }

    /**
     * Decodes text (its length a multiple of 5).
     *
     * @throws IllegalArgumentException the length is not a multiple of 5, or a character is not Z85
     */
    public static byte[] decode(String text) {
        if (text.length() % 5 != 0) {
            throw new IllegalArgumentException("Z85 text comes in groups of 5 characters; got " + text.length());
        }
        byte[] data = new byte[text.length() / 5 * 4];
        for (int i = 0, o = 0; i < text.length(); i += 5, o += 4) {
            long value = 0;
            for (int j = 0; j < 5; j++) {
                char c = text.charAt(i + j);
                int digit = c < 128 ? DECODE[c] : -1;
                if (digit < 0) {
                    throw new IllegalArgumentException("'" + c + "' at " + (i + j) + " is not a Z85 character");
                }
                value = value * 85 + digit;
            }
            if (value > 0xFFFFFFFFL) {
                throw new IllegalArgumentException("the group at " + i + " is out of range for Z85");
            }
            data[o] = (byte) (value >>> 24);
            data[o + 1] = (byte) (value >>> 16);
            data[o + 2] = (byte) (value >>> 8);
            data[o + 3] = (byte) value;
        }
        return data;
    }
}
