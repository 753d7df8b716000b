package dev.fakbattery.wire;

import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
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
 * {@value #DEFAULT_MAX_EVENT_BYTES} bytes.
 *
 * @since 0.1
 */
public final class SseReader implements Closeable {

	/** The default bound on one line and on the data of one event: 16 MiB. */
	public static final int DEFAULT_MAX_EVENT_BYTES = 16 * 1024 * 1024;

	private static final int BUFFER_SIZE = 8192;

	private final InputStream in;

	private final int maxEventBytes;

	private long eventBytes;

	private final byte[] buffer = new byte[BUFFER_SIZE];

	private int position;

	private int limit;

	private boolean lastLineEndedWithCr;

	private boolean firstLine = true;

	private boolean partialLineAtEnd;

	private final ByteArrayOutputStream line = new ByteArrayOutputStream();

	private final StringBuilder data = new StringBuilder();

	private boolean hasData;

	private String eventName;

	private String lastEventId;

	private boolean sawDone;

	private long readNanos;

	private long eventNanos;

	private int comments;

	private int blankLines;

	private int events;

	/** A reader bounded by {@value #DEFAULT_MAX_EVENT_BYTES} bytes per line and per event. */
	public SseReader(InputStream in) {
		this(in, DEFAULT_MAX_EVENT_BYTES);
	}

	/** A reader that fails with {@link SseLimitException} on a line or event longer than {@code maxEventBytes}. */
	public SseReader(InputStream in, int maxEventBytes) {
		this.in = Objects.requireNonNull(in, "in");
		if (maxEventBytes < 1) {
			throw new IllegalArgumentException("maxEventBytes [" + maxEventBytes + "] must be positive");
		}
		this.maxEventBytes = maxEventBytes;
	}

	/** The next event, or empty at end of input. */
	public Optional<SseEvent> next() throws IOException {
		String text;
		while ((text = readLine()) != null) {
			if (text.isEmpty()) {
				Optional<SseEvent> event = dispatch();
				if (event.isPresent()) {
					return event;
				}
				blankLines++;
			}
			else if (text.charAt(0) == ':') {
				comments++;
			}
			else {
				field(text);
			}
		}
		return Optional.empty();
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
		return comments;
	}

	/** Blank lines that dispatched nothing: keep-alive blanks, and the blank line closing a comment-only block. */
	public int blankLines() {
		return blankLines;
	}

	/** At end of input: whether it stopped inside an event or a line, so that pending data was discarded. */
	public boolean endedMidEvent() {
		return partialLineAtEnd || hasData || eventName != null;
	}

	@Override
	public void close() throws IOException {
		in.close();
	}

	private void field(String text) throws SseLimitException {
		int colon = text.indexOf(':');
		String name = colon < 0 ? text : text.substring(0, colon);
		String value = colon < 0 ? "" : text.substring(colon + 1);
		if (value.startsWith(" ")) {
			value = value.substring(1);
		}
		switch (name) {
			case "data" -> {
				eventBytes += value.length() + 1;
				if (eventBytes > maxEventBytes) {
					throw new SseLimitException("SSE event data longer than " + maxEventBytes + " bytes (the limit): the stream is cut there");
				}
				data.append(value).append('\n');
				hasData = true;
			}
			case "event" -> eventName = value;
			case "id" -> {
				if (value.indexOf('\0') < 0) {
					lastEventId = value;
				}
			}
			default -> {
				// retry and unknown fields are ignored, as the SSE rules say
			}
		}
	}

	private Optional<SseEvent> dispatch() {
		if (!hasData) {
			eventName = null;
			return Optional.empty();
		}
		data.setLength(data.length() - 1);
		eventNanos = readNanos;
		SseEvent event = SseEvent.of(data.toString(), eventName, lastEventId);
		data.setLength(0);
		eventBytes = 0;
		hasData = false;
		eventName = null;
		events++;
		if (event.isDone()) {
			sawDone = true;
		}
		return Optional.of(event);
	}

	/**
	 * The next line without its terminator, or null at end of input (a trailing unterminated line is dropped). Scans
	 * the buffer for the terminator and copies the line in one piece; a line wholly inside the buffer is decoded from
	 * it directly.
	 */
	private String readLine() throws IOException {
		line.reset();
		while (true) {
			if (position == limit && !fill()) {
				partialLineAtEnd |= line.size() > 0;
				return null;
			}
			if (lastLineEndedWithCr) {
				lastLineEndedWithCr = false;
				if (buffer[position] == '\n') {
					position++;
					continue;
				}
			}
			int start = position;
			int end = start;
			while (end < limit && buffer[end] != '\n' && buffer[end] != '\r') {
				end++;
			}
			if (line.size() + (end - start) > maxEventBytes) {
				throw new SseLimitException("SSE line longer than " + maxEventBytes + " bytes (the limit): the stream is cut there");
			}
			position = end;
			if (end == limit) {
				line.write(buffer, start, end - start);
				continue;
			}
			lastLineEndedWithCr = buffer[position++] == '\r';
			if (line.size() == 0) {
				return decodeLine(new String(buffer, start, end - start, StandardCharsets.UTF_8));
			}
			line.write(buffer, start, end - start);
			return decodeLine(line.toString(StandardCharsets.UTF_8));
		}
	}

	private String decodeLine(String text) {
		if (firstLine) {
			firstLine = false;
			if (text.startsWith("\uFEFF")) {
				text = text.substring(1);
			}
		}
		return text;
	}

	private boolean fill() throws IOException {
		int read;
		do {
			read = in.read(buffer, 0, buffer.length);
		}
		while (read == 0);
		if (read < 0) {
			return false;
		}
		position = 0;
		limit = read;
		readNanos = System.nanoTime();
		return true;
	}
}
