package dev.fakbattery.wire;

import java.util.Optional;

/**
 * How the engine double says what it is, on every wire it speaks, so that whatever URL reaches it the
 * harness labels its numbers SIMULATED instead of passing them off as an engine's: its version carries
 * {@value #SUFFIX} ({@code /version}, SGLang's {@code /get_server_info}) and every response carries the
 * header {@code Server: }{@value #SERVER}. Both are read in one place, {@link #evidence}.
 *
 * @since 0.1
 */
public final class EngineDoubleMarker {

	/** Appended to the double's reported engine version: {@value}. */
	public static final String SUFFIX = "+engine-double";

	/** The double's {@code Server} response header: {@value}. */
	public static final String SERVER = "fak-battery-engine-double";

	private EngineDoubleMarker() {
	}

	/**
	 * Why an engine that reported {@code version} and sent the {@code Server} header {@code server} is
	 * the engine double; empty when neither says so. Either argument may be null.
	 */
	public static Optional<String> evidence(String version, String server) {
		if (version != null && version.contains("engine-double")) {
			return Optional.of("its version [" + version + "] carries the engine double's suffix " + SUFFIX);
		}
		if (server != null && server.contains("engine-double")) {
			return Optional.of("its Server header [" + server + "] names the engine double");
		}
		return Optional.empty();
	}
}
