package dev.fakbattery.core;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

import org.apiguardian.api.API;

/**
 * Which battery runs, as set by the Maven profile ({@code harness.profile}): the one place that says
 * what each profile allows, so no rung compares profile names.
 *
 * <table>
 * <caption>What each profile allows</caption>
 * <tr><th>profile</th><th>no engine configured</th><th>SIMULATED</th><th>sample counts</th><th>its PASS counts toward
 * COMPLETE</th></tr>
 * <tr><td>default ({@code ./mvnw verify})</td><td>engine double</td><td>expected</td><td>smoke</td><td>no</td></tr>
 * <tr><td>battery</td><td>engine double</td><td>expected; battery says SIMULATED, exit 0</td><td>full</td><td>no</td></tr>
 * <tr><td>gpu</td><td>PENDING_MEASUREMENT</td><td>fails the build</td><td>full</td><td>yes</td></tr>
 * <tr><td>llamacpp (a real engine on CPU)</td><td>PENDING_MEASUREMENT</td><td>fails the build</td><td>full</td><td>yes</td></tr>
 * <tr><td>gate</td><td>(runs no rung)</td><td>not COMPLETE, exit non-zero</td><td>-</td><td>(writes no artifact)</td></tr>
 * </table>
 *
 * @since 0.2
 */
@API(status = API.Status.STABLE, since = "0.6")
public enum Profile {
	DEFAULT, BATTERY, GPU, LLAMACPP, GATE;

	/**
	 * The profile named {@code text}, any case.
	 *
	 * @throws IllegalArgumentException naming the value and the accepted names
	 */
	public static Profile parse(String text) {
		for (Profile profile : values()) {
			if (profile.id().equals(text == null ? null : text.strip().toLowerCase(Locale.ROOT))) {
				return profile;
			}
		}
		throw new IllegalArgumentException("Unable to parse profile [" + text + "]: use one of " + ids());
	}

	static String ids() {
		return Arrays.stream(values()).map(Profile::id).collect(Collectors.joining(", "));
	}

	/** The lower-case name, as in {@code -P<id>}. */
	public String id() {
		return name().toLowerCase(Locale.ROOT);
	}

	/** Whether a rung with no engine configured measures the embedded engine double (SIMULATED) instead of pending. */
	public boolean embeddedTargetAllowed() {
		return this == DEFAULT || this == BATTERY;
	}

	/** Whether a SIMULATED rung is an accepted outcome; elsewhere it fails, naming the rung and the double. */
	public boolean simulatedAccepted() {
		return this == DEFAULT || this == BATTERY;
	}

	/**
	 * Whether an artifact of a run under this profile may count toward a COMPLETE battery: only where an engine that is
	 * not identified is PENDING_MEASUREMENT and the engine double is never substituted ({@code gpu}, {@code llamacpp}).
	 *
	 * @since 0.10
	 */
	public boolean strict() {
		return this == GPU || this == LLAMACPP;
	}

	/** The profiles that are {@link #strict()}, as {@code -Pgpu, -Pllamacpp}. */
	public static String strictOnes() {
		return Arrays.stream(values()).filter(Profile::strict).map(p -> "-P" + p.id()).collect(Collectors.joining(", "));
	}

	/** Whether this is the smoke run inside {@code ./mvnw verify}: tiny sample counts, numbers recorded, never asserted. */
	public boolean smoke() {
		return this == DEFAULT;
	}
}
