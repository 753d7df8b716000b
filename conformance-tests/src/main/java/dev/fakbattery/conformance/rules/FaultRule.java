package dev.fakbattery.conformance.rules;

import static dev.fakbattery.conformance.rules.KitRule.Kind.REQUIRED;

import org.apiguardian.api.API;

/**
 * The fault rules (F01..F07) of {@code FaultVerification}: what a gateway does when its client leaves, its upstream
 * stalls, resets or never ends a line, a client reads slowly, a request is too large. RULES.md's table "Faults" is
 * generated from this index.
 *
 * @since 0.6
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.6")
public enum FaultRule implements KitRule {

	F01(REQUIRED, "client disconnect cancels the upstream request",
			"A client that leaves mid-stream (a TCP reset after two events) makes the gateway cancel its upstream request: the upstream sees its connection closed within 200 ms, and the next stream is served whole. A later close is the gateway's failure unless the kit's own JVM stalled meanwhile at least as long as the close was late (its lag probe); then the try is repeated, up to 3, and 3 tries so explained are PENDING_MEASUREMENT, never a pass.",
			"stream", "upstream paces a chunk every 10 ms", "non-stream",
			"the disconnect is noticed only at the end of the upstream answer, or on a timer; the upstream body is drained instead of closed"),

	F02(REQUIRED, "upstream stall past the timeout: 504 or an error frame, never a hang",
			"An upstream that stalls past the gateway's documented upstream timeout (no headers at all; or silent mid-answer) gets the client a 504 with an OpenAI-shaped error (non-stream; a stream whose headers never came may also get it) or an error frame then `[DONE]` (stream), after the timeout and within timeout + max(timeout/2, 2 s), and the stalled upstream connection is closed.",
			"both", "stall longer than the timeout", "the gateway documents no limits (PENDING_MEASUREMENT, naming the four to set)",
			"no read timeout on the upstream body (only a connect timeout); a timeout that does not close the upstream connection"),

	F03(REQUIRED, "upstream reset mid-answer: an error frame then [DONE], no partial tool call",
			"An upstream that resets the connection mid-answer, inside the arguments of a call the gateway must hold whole (the kit's `transform_` call), gets the client an error frame then `[DONE]` (stream; or a 502 with an OpenAI-shaped error if nothing was streamed yet) or a 502 with an OpenAI-shaped error (non-stream), and not one byte of the cut tool call. (An allowed call may stream through as it arrives; what of it went out before the cut is the engine's own bytes, followed by the error frame.) A 504 is the gateway's failure unless it declares an upstream timeout and the kit's own JVM, where the upstream runs, stalled meanwhile for 8/10 of it (as F04 judges it; 3 tries so explained are PENDING_MEASUREMENT).",
			"both", "reset 1 s after the cut (under the upstream timeout the gateway declares; the kit's embedded gateway: 2 s)", "never",
			"held deltas flushed at the reset; the reset passed on to the client; the stream closed without `[DONE]`"),

	F04(REQUIRED, "endless upstream line or event: bounded reading, a clear error",
			"An upstream line that never ends (and, streaming, an event of data lines that never reaches its blank line; non-stream, a whole answer that never ends) gets a clear error (an error frame then `[DONE]`, or a 502 with an OpenAI-shaped error), and the gateway stops reading: it closes the upstream connection having taken at most its event limit + a slack: one connection's socket buffers at this machine's largest (`tcp_rmem` + `tcp_wmem` maxima, from `/proc/sys/net/ipv4`; Linux's defaults 6 + 4 MiB where unreadable) + 4 MiB, at least 16 MiB. A 504 (an upstream timeout) is the gateway's failure unless the kit's own JVM, where the upstream runs, stalled meanwhile for 8/10 of the gateway's upstream timeout (its lag probe): the upstream was then silent that long and the timeout right; the try is repeated, up to 3, and 3 tries so explained are PENDING_MEASUREMENT, never a pass.",
			"both", "upstream writes up to event limit + slack + 8 MiB",
			"the gateway documents no limits (PENDING_MEASUREMENT, naming the four to set)",
			"lines, events or bodies read into memory without bound (`readLine`, `readAllBytes`)"),

	F05(REQUIRED, "slow client: bounded upstream reading, other streams unaffected",
			"A client that reads one byte a second holds its stream back: the gateway takes from that stream's upstream at most both connections' socket buffers at this machine's largest (upstream to gateway, gateway to client: 2 × (`tcp_rmem` + `tcp_wmem` maxima)) + 8 MiB, at least 32 MiB, of an answer 16 MiB longer, and 4 other streams opened meanwhile are served whole within 5 s. The bytes taken count once they stood still for 3 s of the kit's own running time; still growing after 20 s is a failure. So a gateway that reads ahead without bound but slowly fails when it reads about 2 MiB/s or faster (the self-test's); at about 1 MiB/s its upstream's bytes came in bursts up to 3 s apart and one target's read as settled: slower leaks are below this rule's resolution.",
			"stream", "8 KB content chunks as fast as taken", "non-stream",
			"the answer is read ahead into an unbounded buffer; one slow client blocks a shared thread or lock"),

	F06(REQUIRED, "request body over the limit gets 413",
			"A request body over the documented limit gets 413 with an OpenAI-shaped error, whether its length is declared or it comes chunked, and nothing is forwarded; a body 1 KiB under the limit is served (200).",
			"both", "limit + 1024 and limit − 1024 bytes", "the gateway documents no limits (PENDING_MEASUREMENT, naming the four to set)",
			"no body limit; the limit applied to `Content-Length` only; the body read whole before the check"),

	F07(REQUIRED, "request headers over the limit get 431",
			"A request header section over the documented limit (name, `\": \"`, value and CRLF per header line) gets 431 with an OpenAI-shaped error and nothing is forwarded; 1 KiB under the limit is served (200).",
			"both", "limit ± 1024 bytes in one `X-Fault-Padding` header",
			"the gateway documents no limits (PENDING_MEASUREMENT, naming the four to set)",
			"no header limit below the HTTP server's own (the JDK's is 380 KiB, and it closes the connection without an answer)");

	private final String numbers;

	FaultRule(Kind kind, String title, String must, String modes, String numbers, String skippedWhen, String ifItFails) {
		this.text = new Text(kind, title, must, modes, skippedWhen, ifItFails);
		this.numbers = numbers;
	}

	private final Text text;

	@Override
	public Text text() {
		return text;
	}

	/**
	 * F01 to F05 judge what the gateway does with an upstream that misbehaves: their evidence is that the request reached
	 * the misbehaving upstream. F06 and F07 judge a refusal the gateway gives itself, beside a request under the limit
	 * that must be served: that one must reach the upstream and come back HTTP 200.
	 */
	@Override
	public Evidence evidence() {
		return switch (this) {
			case F06, F07 -> Evidence.DELIVERED;
			default -> Evidence.FORWARDED;
		};
	}

	/** Every fault rule is resilience: what the gateway does when things go wrong. */
	@Override
	public ConformanceClass conformanceClass() {
		return ConformanceClass.RESILIENCE;
	}

	/** The numbers the rule runs with (pace, sizes, deadlines). */
	public String numbers() {
		return numbers;
	}
}
