package dev.fakbattery.wire;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * The server-sent-event rules of {@link SseReader}, fed bytes as they arrive instead of reading them: for a caller that
 * is handed the bytes, such as an HTTP client's body subscriber, so that no thread waits on a stream between events.
 * Lines end in {@code \r\n}, {@code \n} or {@code \r}, also when split across feeds; {@code data:} lines accumulate and a
 * blank line dispatches them; {@code event:} and {@code id:} are kept, {@code retry:} and unknown fields ignored;
 * comments and blank lines that dispatch nothing are counted. A line, or the data of one event, longer than the bound
 * is an {@link SseLimitException} as soon as the bound is passed.
 *
 * <pre>
 * SseParser parser = new SseParser(SseReader.DEFAULT_MAX_EVENT_BYTES);
 * parser.feed(bytes, 0, bytes.length, System.nanoTime(), (event, arrived) -> ...);
 * parser.end(); // then sawDone(), endedMidEvent()
 * </pre>
 *
 * <p>Not thread-safe: feed one stream's bytes in order from one thread at a time.
 *
 * @since 0.4
 */
public final class SseParser {

	/** Receives each event a feed completes, with the time given to that feed. */
	@FunctionalInterface
	public interface Sink {

		/** {@code arrivedNanos}: the time the feed that completed the event was given. */
		void event(SseEvent event, long arrivedNanos);
	}

	private final int maxEventBytes;

	private final ByteArrayOutputStream line = new ByteArrayOutputStream();

	private final StringBuilder data = new StringBuilder();

	private long eventBytes;

	private boolean lastLineEndedWithCr;

	private boolean firstLine = true;

	private boolean partialLineAtEnd;

	private boolean hasData;

	private String eventName;

	private String lastEventId;

	private boolean sawDone;

	private int comments;

	private int blankLines;

	private int events;

	/** A parser that fails with {@link SseLimitException} on a line or event longer than {@code maxEventBytes}. */
	public SseParser(int maxEventBytes) {
		if (maxEventBytes < 1) {
			throw new IllegalArgumentException("maxEventBytes [" + maxEventBytes + "] must be positive");
		}
		this.maxEventBytes = maxEventBytes;
	}

	/**
	 * Parses {@code length} bytes from {@code offset}, handing {@code sink} every event they complete, in order. Scans
	 * for each line's terminator and decodes a line wholly inside {@code bytes} straight from it.
	 * @param arrivedNanos when these bytes arrived ({@link System#nanoTime()}), passed on with each event
	 * @throws SseLimitException when a line or an event passes the bound; events completed before it were handed on
	 */
	public void feed(byte[] bytes, int offset, int length, long arrivedNanos, Sink sink) throws SseLimitException {
		int position = offset;
		int limit = offset + length;
		while (position < limit) {
			if (lastLineEndedWithCr) {
				lastLineEndedWithCr = false;
				if (bytes[position] == '\n') {
					position++;
					continue;
				}
			}
			int start = position;
			int end = start;
			while (end < limit && bytes[end] != '\n' && bytes[end] != '\r') {
				end++;
			}
			if (line.size() + (end - start) > maxEventBytes) {
				throw new SseLimitException("SSE line longer than " + maxEventBytes + " bytes (the limit): the stream is cut there");
			}
			if (end == limit) {
				line.write(bytes, start, end - start);
				return;
			}
			lastLineEndedWithCr = bytes[end] == '\r';
			position = end + 1;
			String text;
			if (line.size() == 0) {
				text = new String(bytes, start, end - start, StandardCharsets.UTF_8);
			}
			else {
				line.write(bytes, start, end - start);
				text = line.toString(StandardCharsets.UTF_8);
				line.reset();
			}
			SseEvent event = line(text);
			if (event != null) {
				sink.event(event, arrivedNanos);
			}
		}
	}

	/** The input has ended: an unterminated line or event is discarded, as the SSE rules say, and told by {@link #endedMidEvent()}. */
	public void end() {
		partialLineAtEnd |= line.size() > 0;
		line.reset();
	}

	/** Whether a {@code data: [DONE]} event has been parsed. */
	public boolean sawDone() {
		return sawDone;
	}

	/** Events handed on so far, {@code [DONE]} and error frames included. */
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

	/** After {@link #end()}: whether the input stopped inside an event or a line, so that pending data was discarded. */
	public boolean endedMidEvent() {
		return partialLineAtEnd || hasData || eventName != null;
	}

	/** One complete line: the event it dispatches, or null. */
	private SseEvent line(String raw) throws SseLimitException {
		String text = raw;
		if (firstLine) {
			firstLine = false;
			if (text.startsWith("\uFEFF")) {
				text = text.substring(1);
			}
		}
		if (text.isEmpty()) {
			SseEvent event = dispatch();
			if (event == null) {
				blankLines++;
			}
			return event;
		}
		if (text.charAt(0) == ':') {
			comments++;
		}
		else {
			field(text);
		}
		return null;
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
					throw new SseLimitException(
							"SSE event data longer than " + maxEventBytes + " bytes (the limit): the stream is cut there");
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

	private SseEvent dispatch() {
		if (!hasData) {
			eventName = null;
			return null;
		}
		data.setLength(data.length() - 1);
		SseEvent event = SseEvent.of(data.toString(), eventName, lastEventId);
		data.setLength(0);
		eventBytes = 0;
		hasData = false;
		eventName = null;
		events++;
		if (event.isDone()) {
			sawDone = true;
		}
		return event;
	}
}
