package dev.fakbattery.conformance.fault;

import java.util.Locale;

/** What the fault upstream does with one chat request, named in the request as {@code fault:NAME[:N]}. */
enum Fault {

	/** A plain text answer. */
	TEXT,
	/** N content chunks 10 ms apart, then the finish (a whole text answer when not streaming). */
	PACED,
	/** Reads the request and never answers: no status line, no headers. */
	STALL_HEADERS,
	/** Headers and the first part of the answer, then silence. */
	STALL_BODY,
	/** The kit's allowed tool call cut inside its arguments, then a TCP reset. */
	RESET,
	/** An SSE data line (or a whole answer) that never ends, written as fast as the gateway takes it, up to N MiB. */
	ENDLESS_LINE,
	/** One SSE event of short data lines that never reaches its blank line, up to N MiB. */
	ENDLESS_EVENT,
	/** Content chunks of 8 KB as fast as the gateway takes them, N MiB in all, then the finish. */
	FLOOD;

	/** {@code stall-headers} for {@link #STALL_HEADERS}. */
	String id() {
		return name().toLowerCase(Locale.ROOT).replace('_', '-');
	}

	static Fault parse(String id) {
		return valueOf(id.toUpperCase(Locale.ROOT).replace('-', '_'));
	}

	/** The marker a kit request carries: {@code fault:NAME:N nonce=ID}. */
	String marker(int n, String nonce) {
		return "fault:" + id() + ":" + n + " nonce=" + nonce;
	}
}
