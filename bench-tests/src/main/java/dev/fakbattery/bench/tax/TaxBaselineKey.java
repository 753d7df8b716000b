package dev.fakbattery.bench.tax;

import java.util.Objects;
import java.util.Optional;

import dev.fakbattery.core.ConfigKeys;
import dev.fakbattery.core.HarnessConfig;
import dev.fakbattery.core.HarnessConstants;

import org.apiguardian.api.API;

/**
 * What a latency-tax baseline is a baseline of: the gateway, the engine and its version, the model, the workload and
 * the host class. A tax measured on any other of them is another quantity, so the {@link TaxGate} compares a reading
 * only with the baseline recorded under the same key ({@link #id()}).
 *
 * @param gateway how the gateway under test was reached ({@link #gatewayOf(HarnessConfig)}), not its version: a new
 *        build of the same gateway is what the gate judges
 * @param engine the raw engine's kind, {@code engine-double-<dialect>} for the engine double
 * @param engineVersion the version the engine reported; null when it reported none or nobody asked it (written
 *        {@value #VERSION_UNREPORTED}: such engines of one kind share a key, as nothing tells their versions apart)
 * @param model the served model
 * @param workload the workload with its parameters and seed ({@code Workload#describe()})
 * @param hostClass the kind of host that measured ({@link HostClass})
 * @since 0.8
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.8")
public record TaxBaselineKey(String gateway, String engine, String engineVersion, String model, String workload,
		String hostClass) {

	/** How every key of this form starts, and fak's {@code <model>::<engine>} keys do not: {@value}. */
	public static final String PREFIX = "gateway=";

	/** The version part of the key of an engine that reported none: {@value}. */
	public static final String VERSION_UNREPORTED = "version-unreported";

	public TaxBaselineKey {
		Objects.requireNonNull(gateway, "gateway");
		Objects.requireNonNull(engine, "engine");
		Objects.requireNonNull(model, "model");
		Objects.requireNonNull(workload, "workload");
		Objects.requireNonNull(hostClass, "hostClass");
		engineVersion = engineVersion == null || engineVersion.isBlank() ? VERSION_UNREPORTED : engineVersion;
	}

	/**
	 * The key in the baseline file:
	 * {@code gateway=<g>|engine=<kind> <version>|model=<m>|workload=<w>|host=<host class>}.
	 */
	public String id() {
		return PREFIX + gateway + "|engine=" + engine + " " + engineVersion + "|model=" + model + "|workload=" + workload + "|host="
				+ hostClass;
	}

	/** Whether {@code key} is one of fak's {@code <model>::<engine>} keys, which name none of the rest. */
	public static boolean legacy(String key) {
		return !key.startsWith(PREFIX);
	}

	/**
	 * The gateway part of the key: {@code url <gateway.url>}, {@code cmd <gateway.cmd>} (the template, as written), or
	 * {@code embedded reference-gateway/<reference.gateway.server>}.
	 */
	public static String gatewayOf(HarnessConfig config) {
		Optional<String> url = config.string(HarnessConstants.GATEWAY_URL);
		if (url.isPresent()) {
			return "url " + url.get();
		}
		return config.string(HarnessConstants.GATEWAY_CMD)
				.map(cmd -> "cmd " + cmd)
				.orElseGet(() -> "embedded reference-gateway/" + config.get(ConfigKeys.REFERENCE_GATEWAY_SERVER));
	}
}
