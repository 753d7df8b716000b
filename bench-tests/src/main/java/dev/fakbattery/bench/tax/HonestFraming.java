package dev.fakbattery.bench.tax;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The framing sentence of a tax artifact, and the check that it is honest: it must state that the
 * tax is expected to be at least 1 (the gateway adds work, so it is never faster), it must not
 * claim a speed win, and a run measured on the engine double must say SIMULATED and name the
 * engine double.
 *
 * @since 0.1
 */
public final class HonestFraming {

	private static final Pattern EXPECTS_AT_LEAST_ONE = Pattern.compile("(?i)expected[^.]*(>=|≥|at least)\\s*1\\b");

	private static final Pattern SPEED_CLAIM = Pattern.compile(
			"(?i)\\b(faster|quicker|speed[- ]?ups?|speeds? up|outperform\\w*|speed win|beats?|"
					+ "(improv|reduc|lower|cut)\\w*\\s+(the\\s+)?(latency|throughput|ttft|tpot))\\b");

	private HonestFraming() {
	}

	/** The framing of a tax witness over {@code count} interleaved samples per leg. */
	public static String compose(boolean simulated, String engine, int count, int maxTokens) {
		String text = "Gateway tax witness: the gateway under test vs the raw " + engine + " engine, same model, the same "
				+ "deterministic streamed request (temperature 0, max_tokens " + maxTokens + "), " + count
				+ " samples per leg in ABBA-interleaved order after a warm-up. latency_tax = gateway/raw median E2EL and "
				+ "decode_tps_tax = raw/gateway median decode tok/s, each with a 95% bootstrap interval; both are expected "
				+ "to be >= 1, because the gateway adds work on the request path. A value below 1 is noise (compare the "
				+ "A/A noise floor), not a gain.";
		if (simulated) {
			text += " SIMULATED: the upstream is the engine double (" + engine + " dialect), not a real engine, so these "
					+ "numbers describe the harness and the gateway on this machine, never " + engine + " performance.";
		}
		return text;
	}

	/** What makes {@code framing} dishonest; empty when it is honest. */
	public static List<String> problems(String framing, boolean simulated) {
		List<String> problems = new ArrayList<>();
		String text = framing == null ? "" : framing;
		if (!EXPECTS_AT_LEAST_ONE.matcher(text).find()) {
			problems.add("does not state that the tax is expected to be >= 1");
		}
		var claim = SPEED_CLAIM.matcher(text);
		if (claim.find()) {
			problems.add("claims a speed win ('" + claim.group() + "')");
		}
		if (simulated && !text.contains("SIMULATED")) {
			problems.add("a run on the engine double does not say SIMULATED");
		}
		if (simulated && !text.toLowerCase(Locale.ROOT).contains("engine double")) {
			problems.add("a run on the engine double does not name the engine double");
		}
		return problems;
	}
}
