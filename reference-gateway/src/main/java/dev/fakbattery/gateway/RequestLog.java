package dev.fakbattery.gateway;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import com.sun.net.httpserver.HttpExchange;

/**
 * Request bodies written to a log only when asked ({@code --log-bodies}): a body carries prompts, tool results and
 * whatever secrets they hold, so by default the gateway writes none of it anywhere.
 */
final class RequestLog {

	private static final RequestLog NONE = new RequestLog(null);

	private final PrintStream out;

	private RequestLog(PrintStream out) {
		this.out = out;
	}

	/** A log that writes each chat request body to {@code out}, or writes nothing when {@code out} is null. */
	static RequestLog to(PrintStream out) {
		return out == null ? NONE : new RequestLog(out);
	}

	void body(HttpExchange exchange, byte[] body) {
		if (out != null) {
			out.println("request " + exchange.getRequestMethod() + " " + exchange.getRequestURI().getPath() + " "
					+ new String(body, StandardCharsets.UTF_8));
		}
	}
}
