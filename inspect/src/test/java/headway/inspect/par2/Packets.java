package headway.inspect.par2;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;

/** PAR2 packets built by hand, with correct MD5s, for the details and lies the real tool never writes. */
final class Packets {

    static final String MAIN = "PAR 2.0\0Main\0\0\0\0";
    static final String FILE_DESC = "PAR 2.0\0FileDesc";
    static final String RECOVERY = "PAR 2.0\0RecvSlic";
    static final String CREATOR = "PAR 2.0\0Creator\0";

    private Packets() {}

    /** A packet of {@code type} in set {@code setId} with {@code body} (padded to a multiple of 4). */
    static byte[] packet(String type, byte[] setId, byte[] body) {
        int padded = (body.length + 3) & ~3;
        ByteBuffer p = ByteBuffer.allocate(64 + padded).order(ByteOrder.LITTLE_ENDIAN);
        p.put("PAR2\0PKT".getBytes(StandardCharsets.ISO_8859_1));
        p.putLong(64 + padded);
        p.put(new byte[16]);
        p.put(setId);
        p.put(type.getBytes(StandardCharsets.ISO_8859_1));
        p.put(body);
        byte[] b = p.array();
        rehash(b, 0);
        return b;
    }

    /** Recomputes the MD5 of the packet at {@code at}, from its own length field. */
    static void rehash(byte[] b, int at) {
        long length =
                ByteBuffer.wrap(b, at + 8, 8).order(ByteOrder.LITTLE_ENDIAN).getLong();
        MessageDigest md = Par2Set.md5();
        md.update(b, at + 32, (int) length - 32);
        System.arraycopy(md.digest(), 0, b, at + 16, 16);
    }

    /** A main packet body; its MD5 is the set id. */
    static byte[] mainBody(long sliceSize, byte[][] recoveryIds, byte[][] otherIds) {
        ByteBuffer p = ByteBuffer.allocate(12 + 16 * (recoveryIds.length + otherIds.length))
                .order(ByteOrder.LITTLE_ENDIAN);
        p.putLong(sliceSize).putInt(recoveryIds.length);
        for (byte[] id : recoveryIds) {
            p.put(id);
        }
        for (byte[] id : otherIds) {
            p.put(id);
        }
        return p.array();
    }

    static byte[] md5(byte[] b) {
        return Par2Set.md5().digest(b);
    }

    static byte[] fileDescBody(byte[] id, byte[] md5, byte[] md5Of16k, long length, byte[] name) {
        ByteBuffer p = ByteBuffer.allocate(56 + name.length).order(ByteOrder.LITTLE_ENDIAN);
        return p.put(id).put(md5).put(md5Of16k).putLong(length).put(name).array();
    }

    static byte[] recoveryBody(int exponent, int sliceSize) {
        return ByteBuffer.allocate(4 + sliceSize)
                .order(ByteOrder.LITTLE_ENDIAN)
                .putInt(exponent)
                .array();
    }

    static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }

    static void putLong(byte[] b, int at, long v) {
        ByteBuffer.wrap(b, at, 8).order(ByteOrder.LITTLE_ENDIAN).putLong(v);
    }
}
