package dev.fakbattery.wire;

/**
 * The engine double says what it is in its version ({@code 0.29.0+engine-double}), so a rung that
 * reaches it through any URL labels its numbers SIMULATED instead of passing them off as an engine's.
 *
 * @since 0.1
 */
public final class EngineDoubleMarker {

	/** Appended to the double's reported engine version: {@value}. */
	public static final String SUFFIX = "+engine-double";

	private EngineDoubleMarker() {
	}

	/** Whether an engine version string (from /version or server info) is the engine double's. */
	public static boolean isEngineDouble(String version) {
		return version != null && version.contains("engine-double");
	}
}
