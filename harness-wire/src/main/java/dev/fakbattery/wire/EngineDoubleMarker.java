package dev.fakbattery.wire;

import java.util.Optional;

/**
 * How the engine double says what it is, on every wire it speaks, so that whatever URL reaches it the
 * harness labels its numbers SIMULATED instead of passing them off as an engine's: its version carries
 * {@value #SUFFIX} ({@code /version}, SGLang's {@code /get_server_info}, and so the {@code system_fingerprint} of its
 * vLLM-dialect {@code /v1} answers, {@code vllm-<version>-<hash>}), every response carries the header
 * {@code Server: }{@value #SERVER}, and its {@code /metrics} page opens with the comment {@link #METRICS_COMMENT} (so a
 * proxy that hides the version endpoints and the header but relays the metrics, whose families are vLLM's, or relays only
 * {@code /v1}, still shows it). All are read in one place, {@link #evidence}.
 *
 * @since 0.1
 */
public final class EngineDoubleMarker {

	/** Appended to the double's reported engine version: {@value}. */
	public static final String SUFFIX = "+engine-double";

	/** The double's {@code Server} response header: {@value}. */
	public static final String SERVER = "fak-battery-engine-double";

	/**
	 * The first line of the double's {@code /metrics} page, a Prometheus comment every parser skips: {@value}.
	 *
	 * @since 0.5
	 */
	public static final String METRICS_COMMENT = "# " + SERVER + ": simulated numbers, no engine behind them";

	private EngineDoubleMarker() {
	}

	/**
	 * Why an engine that reported {@code version} and sent the {@code Server} header {@code server} is
	 * the engine double; empty when neither says so. Either argument may be null.
	 */
	public static Optional<String> evidence(String version, String server) {
		return evidence(version, server, null);
	}

	/**
	 * {@link #evidence(String, String)}, or, when neither says so, whether the {@code /metrics} page
	 * {@code metricsPage} (may be null) carries {@link #METRICS_COMMENT}.
	 *
	 * @since 0.5
	 */
	public static Optional<String> evidence(String version, String server, String metricsPage) {
		return evidence(version, server, metricsPage, null);
	}

	/**
	 * {@link #evidence(String, String, String)}, or, when none says so, whether the {@code system_fingerprint}
	 * {@code fingerprint} of a {@code /v1} answer (may be null) carries {@value #SUFFIX}.
	 *
	 * @since 0.8
	 */
	public static Optional<String> evidence(String version, String server, String metricsPage, String fingerprint) {
		if (version != null && version.contains("engine-double")) {
			return Optional.of("its version [" + version + "] carries the engine double's suffix " + SUFFIX);
		}
		if (server != null && server.contains("engine-double")) {
			return Optional.of("its Server header [" + server + "] names the engine double");
		}
		if (metricsPage != null && metricsPage.contains(METRICS_COMMENT)) {
			return Optional.of("its /metrics page carries the engine double's comment [" + METRICS_COMMENT + "]");
		}
		if (fingerprint != null && fingerprint.contains("engine-double")) {
			return Optional.of("the system_fingerprint [" + fingerprint + "] of its /v1 answer carries the engine double's suffix "
					+ SUFFIX);
		}
		return Optional.empty();
	}
}
