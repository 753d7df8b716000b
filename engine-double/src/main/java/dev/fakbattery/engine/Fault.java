package dev.fakbattery.engine;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A failure the double injects into one chat-completion request, chosen by the request header
 * {@value #HEADER} or queued with {@link EngineDouble#nextFault(Fault)}.
 *
 * <h2>Header syntax</h2>
 * {@code key=value} pairs separated by {@code ;} or {@code ,}, for example {@code X-Double-Fault: stall-ms=200; stall-after=3}.
 * <ul>
 * <li>{@code status=N}: answer at once with HTTP N and the dialect's error body (401: {@code {"error":"Unauthorized"}}).</li>
 * <li>{@code abort-after=K}: close the connection after K SSE events, without the terminating chunk.</li>
 * <li>{@code stall-ms=N}, optional {@code stall-after=K} (default 0): pause N ms after K events; the rest of the
 *     schedule shifts by N.</li>
 * <li>{@code malformed-after=K}: after K events send the non-JSON line {@value #MALFORMED_LINE}, then go on.</li>
 * <li>{@code stream-error-after=K}: after K events send the dialect's in-stream error frame, then {@code [DONE]}.</li>
 * </ul>
 * Events are counted from the role chunk (event 1). A fault whose K is beyond the stream's length fires just before
 * {@code [DONE]}. Non-streamed requests: {@code abort-after} closes the connection instead of answering,
 * {@code stall-ms} delays the answer, {@code malformed-after} sends a truncated body, {@code stream-error-after}
 * answers 500 with the dialect's error body.
 *
 * @param status HTTP status to answer with, or {@link #UNSET}
 * @param abortAfter events before the connection is closed, or {@link #UNSET}
 * @param stallMillis length of the pause, 0 for none
 * @param stallAfter events before the pause
 * @param malformedAfter events before the malformed line, or {@link #UNSET}
 * @param streamErrorAfter events before the error frame, or {@link #UNSET}
 * @since 0.1
 */
public record Fault(int status, int abortAfter, long stallMillis, int stallAfter, int malformedAfter, int streamErrorAfter) {

	/** The request header that selects a fault. */
	public static final String HEADER = "X-Double-Fault";

	/** The data line sent by {@code malformed-after}. */
	public static final String MALFORMED_LINE = "data: {\"malformed\": ";

	/** Marks an unset count or status. */
	public static final int UNSET = -1;

	private static final Fault NONE = new Fault(UNSET, UNSET, 0, 0, UNSET, UNSET);

	public Fault {
		if (status != UNSET && (status < 100 || status > 599)) {
			throw new IllegalArgumentException("status must be an HTTP status 100..599, was " + status);
		}
		requireCount("abort-after", abortAfter);
		requireCount("malformed-after", malformedAfter);
		requireCount("stream-error-after", streamErrorAfter);
		if (stallMillis < 0 || stallAfter < 0) {
			throw new IllegalArgumentException("stall-ms and stall-after must not be negative");
		}
	}

	/** No fault. */
	public static Fault none() {
		return NONE;
	}

	/** Answer at once with HTTP {@code status} and the dialect's error body. */
	public static Fault status(int status) {
		return new Fault(status, UNSET, 0, 0, UNSET, UNSET);
	}

	/** Close the connection after {@code events} SSE events (a non-streamed request gets no answer). */
	public static Fault abortAfter(int events) {
		return new Fault(UNSET, requirePositiveCount(events), 0, 0, UNSET, UNSET);
	}

	/** Pause before the first event (or the non-streamed answer). */
	public static Fault stall(Duration pause) {
		return stallAfter(0, pause);
	}

	/** Pause after {@code events} events; the rest of the schedule shifts by {@code pause}. */
	public static Fault stallAfter(int events, Duration pause) {
		return new Fault(UNSET, UNSET, pause.toMillis(), requirePositiveCount(events), UNSET, UNSET);
	}

	/** Send {@value #MALFORMED_LINE} after {@code events} events (a non-streamed answer is truncated). */
	public static Fault malformedAfter(int events) {
		return new Fault(UNSET, UNSET, 0, 0, requirePositiveCount(events), UNSET);
	}

	/** Send the dialect's in-stream error frame and {@code [DONE]} after {@code events} events (non-streamed: 500). */
	public static Fault streamErrorAfter(int events) {
		return new Fault(UNSET, UNSET, 0, 0, UNSET, requirePositiveCount(events));
	}

	/**
	 * Parses a {@value #HEADER} value.
	 *
	 * @throws IllegalArgumentException naming the part that could not be parsed
	 */
	public static Fault parse(String header) {
		int status = UNSET;
		int abortAfter = UNSET;
		long stallMillis = 0;
		int stallAfter = 0;
		int malformedAfter = UNSET;
		int streamErrorAfter = UNSET;
		for (String part : header.split("[;,]")) {
			if (part.isBlank()) {
				continue;
			}
			int eq = part.indexOf('=');
			if (eq < 0) {
				throw new IllegalArgumentException("Unable to parse " + HEADER + " part [" + part.strip() + "]: expected key=value");
			}
			String key = part.substring(0, eq).strip().toLowerCase(Locale.ROOT);
			long value = parseNumber(part, part.substring(eq + 1).strip());
			switch (key) {
				case "status" -> status = (int) value;
				case "abort-after" -> abortAfter = (int) value;
				case "stall-ms" -> stallMillis = value;
				case "stall-after" -> stallAfter = (int) value;
				case "malformed-after" -> malformedAfter = (int) value;
				case "stream-error-after" -> streamErrorAfter = (int) value;
				default -> throw new IllegalArgumentException("Unknown " + HEADER + " key [" + key
						+ "]: use status, abort-after, stall-ms, stall-after, malformed-after or stream-error-after");
			}
		}
		return new Fault(status, abortAfter, stallMillis, stallAfter, malformedAfter, streamErrorAfter);
	}

	/** True when nothing is injected. */
	public boolean isNone() {
		return equals(NONE);
	}

	/** This fault as a {@value #HEADER} value that {@link #parse(String)} reads back. */
	public String toHeader() {
		List<String> parts = new ArrayList<>();
		if (status != UNSET) {
			parts.add("status=" + status);
		}
		if (abortAfter != UNSET) {
			parts.add("abort-after=" + abortAfter);
		}
		if (stallMillis > 0) {
			parts.add("stall-ms=" + stallMillis);
			parts.add("stall-after=" + stallAfter);
		}
		if (malformedAfter != UNSET) {
			parts.add("malformed-after=" + malformedAfter);
		}
		if (streamErrorAfter != UNSET) {
			parts.add("stream-error-after=" + streamErrorAfter);
		}
		return String.join("; ", parts);
	}

	private static long parseNumber(String part, String text) {
		try {
			long value = Long.parseLong(text);
			if (value < 0 || value > Integer.MAX_VALUE) {
				throw new NumberFormatException("out of range");
			}
			return value;
		}
		catch (NumberFormatException e) {
			throw new IllegalArgumentException("Unable to parse " + HEADER + " part [" + part.strip()
					+ "]: value must be a whole number 0.." + Integer.MAX_VALUE, e);
		}
	}

	private static void requireCount(String name, int value) {
		if (value != UNSET && value < 0) {
			throw new IllegalArgumentException(name + " must be >= 0, was " + value);
		}
	}

	private static int requirePositiveCount(int value) {
		if (value < 0) {
			throw new IllegalArgumentException("event count must be >= 0, was " + value);
		}
		return value;
	}
}
