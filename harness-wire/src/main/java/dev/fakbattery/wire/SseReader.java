package dev.fakbattery.wire;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayDeque;
import java.util.Objects;
import java.util.Optional;

/**
 * Reads server-sent events from a stream as they arrive, following the HTML SSE parsing rules: lines end in
 * {@code \r\n}, {@code \n} or {@code \r}; {@code data:} lines accumulate and a blank line dispatches them; a leading
 * space after the colon is dropped; {@code event:} and {@code id:} are kept, {@code retry:} and unknown fields ignored;
 * comment lines ({@code : keep-alive}) and blank lines that dispatch nothing are skipped but counted.
 *
 * <p>Only what is needed for the next event is read: {@link #next()} returns as soon as the blank line after it has
 * arrived, so a test can observe a gateway's stream chunk by chunk. At end of input an unterminated event is
 * discarded (as the SSE rules say) and reported by {@link #endedMidEvent()}; a stream that ended without
 * {@code data: [DONE]} is told by {@link #sawDone()} being false.
 *
 * <p>Memory is bounded: a line, or the data of one event, longer than {@code maxEventBytes} is a
 * {@link SseLimitException} (an {@link IOException}, so a caller that handles a broken stream handles it too), thrown
 * as soon as the limit is passed, not at the end of the line; the reader is unusable after it. The default limit is
 * {@value #DEFAULT_MAX_EVENT_BYTES} bytes. The rules themselves are {@link SseParser}'s, fed each read.
 *
 * @since 0.1
 */
public final class SseReader implements Closeable {

	/** The default bound on one line and on the data of one event: 16 MiB. */
	public static final int DEFAULT_MAX_EVENT_BYTES = 16 * 1024 * 1024;

	private static final int BUFFER_SIZE = 8192;

	private final InputStream in;

	private final SseParser parser;

	private final byte[] buffer = new byte[BUFFER_SIZE];

	private final ArrayDeque<Timed> pending = new ArrayDeque<>();

	private SseLimitException failure;

	private boolean sawDone;

	private int events;

	private long eventNanos;

	private record Timed(SseEvent event, long nanos) {
	}

	/** A reader bounded by {@value #DEFAULT_MAX_EVENT_BYTES} bytes per line and per event. */
	public SseReader(InputStream in) {
		this(in, DEFAULT_MAX_EVENT_BYTES);
	}

	/** A reader that fails with {@link SseLimitException} on a line or event longer than {@code maxEventBytes}. */
	public SseReader(InputStream in, int maxEventBytes) {
		this.in = Objects.requireNonNull(in, "in");
		this.parser = new SseParser(maxEventBytes);
	}

	/** The next event, or empty at end of input. */
	public Optional<SseEvent> next() throws IOException {
		while (pending.isEmpty()) {
			if (failure != null) {
				throw failure;
			}
			int read = fill();
			if (read < 0) {
				parser.end();
				return Optional.empty();
			}
			try {
				parser.feed(buffer, 0, read, System.nanoTime(), (event, nanos) -> pending.add(new Timed(event, nanos)));
			}
			catch (SseLimitException e) {
				failure = e;
			}
		}
		Timed next = pending.poll();
		eventNanos = next.nanos();
		events++;
		sawDone |= next.event().isDone();
		return Optional.of(next.event());
	}

	/** Whether a {@code data: [DONE]} event has been read. */
	public boolean sawDone() {
		return sawDone;
	}

	/**
	 * When the last event returned arrived: {@link System#nanoTime()} right after the read that brought the blank line
	 * ending it, so before its data was parsed; 0 before the first event.
	 */
	public long eventNanos() {
		return eventNanos;
	}

	/** Events returned so far, {@code [DONE]} and error frames included. */
	public int events() {
		return events;
	}

	/** Comment lines skipped so far ({@code : keep-alive}, {@code : ping}). */
	public int comments() {
		return parser.comments();
	}

	/** Blank lines that dispatched nothing: keep-alive blanks, and the blank line closing a comment-only block. */
	public int blankLines() {
		return parser.blankLines();
	}

	/** At end of input: whether it stopped inside an event or a line, so that pending data was discarded. */
	public boolean endedMidEvent() {
		return parser.endedMidEvent();
	}

	@Override
	public void close() throws IOException {
		in.close();
	}

	/** Bytes read into the buffer, or -1 at end of input. */
	private int fill() throws IOException {
		int read;
		do {
			read = in.read(buffer, 0, buffer.length);
		} while (read == 0);
		return read;
	}
}
