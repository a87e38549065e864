package net.zmq;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/** The frames of one multipart message, as arrays, in order. Not thread-safe. */
public final class MultipartMessage implements Iterable<byte[]> {
    private final List<byte[]> frames = new ArrayList<>();

    /** An empty message. */
    public MultipartMessage() {
    }

    /** A message of these frames (not copied). */
    public static MultipartMessage of(byte[]... frames) {
        MultipartMessage message = new MultipartMessage();
        for (byte[] frame : frames) {
            message.add(frame);
        }
        return message;
    }

    /** A message of these frames in UTF-8. */
    public static MultipartMessage of(String... frames) {
        MultipartMessage message = new MultipartMessage();
        for (String frame : frames) {
            message.add(frame);
        }
        return message;
    }

    /** Appends a frame (not copied). @return this */
    public MultipartMessage add(byte[] frame) {
        frames.add(java.util.Objects.requireNonNull(frame, "frame"));
        return this;
    }

    /** Appends a frame of UTF-8 text. @return this */
    public MultipartMessage add(String frame) {
        return add(frame.getBytes(StandardCharsets.UTF_8));
    }

    /** Appends an empty frame (the REQ/ROUTER delimiter). @return this */
    public MultipartMessage addEmpty() {
        return add(new byte[0]);
    }

    /** Inserts a frame in front (e.g. a routing id). @return this */
    public MultipartMessage push(byte[] frame) {
        frames.add(0, java.util.Objects.requireNonNull(frame, "frame"));
        return this;
    }

    /** Removes and returns the first frame. @throws java.util.NoSuchElementException when empty */
    public byte[] pop() {
        if (frames.isEmpty()) {
            throw new java.util.NoSuchElementException("the message has no frame left");
        }
        return frames.remove(0);
    }

    /** The frame at index. */
    public byte[] get(int index) {
        return frames.get(index);
    }

    /** The frame at index as UTF-8 text. */
    public String getString(int index) {
        return new String(frames.get(index), StandardCharsets.UTF_8);
    }

    /** The number of frames. */
    public int size() {
        return frames.size();
    }

    /** Whether there is no frame. */
    public boolean isEmpty() {
        return frames.isEmpty();
    }

    @Override
    public Iterator<byte[]> iterator() {
        return frames.iterator();
    }

    @Override
    public String toString() {
        return "MultipartMessage[" + frames.size() + " frames]";
    }
}
