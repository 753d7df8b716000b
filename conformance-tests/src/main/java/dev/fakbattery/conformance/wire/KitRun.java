package dev.fakbattery.conformance.wire;

import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

import dev.fakbattery.core.ConfigKey;
import dev.fakbattery.core.ConfigKeys;
import dev.fakbattery.core.HarnessConfig;
import dev.fakbattery.core.HarnessConstants;

import org.apiguardian.api.API;

/** What a kit class run inside a rung (the wire rung and the fault rung) is handed: the configuration the rung itself was given. */
@API(status = API.Status.INTERNAL, since = "0.6")
public final class KitRun {

	private KitRun() {
	}

	/**
	 * Every key of {@link ConfigKeys} with the value {@code config} resolves for it, as JUnit configuration
	 * parameters: the kit run inside a rung (which sees only the parameters it is given) then reads exactly what the
	 * rung read, whether it came as a configuration parameter or a system property.
	 */
	public static Map<String, String> parameters(HarnessConfig config) {
		Map<String, String> parameters = new TreeMap<>();
		for (ConfigKey<?> key : ConfigKeys.all()) {
			config.string(key.name()).ifPresent(value -> parameters.put(key.name(), value));
		}
		return parameters;
	}

	/**
	 * The folder of captures to replay: {@code wire.captures}, else the folder the opt-in capture step of this run wrote
	 * ({@code wire.capture.dir}). A relative one is read from the repository root ({@code harness.root.dir}, set by the
	 * build), as a user typing {@code -Dwire.captures=../shared/wire} there means.
	 */
	static Optional<Path> capturesDir(HarnessConfig config) {
		return config.path(HarnessConstants.WIRE_CAPTURES)
				.or(() -> config.path(HarnessConstants.WIRE_CAPTURE_DIR))
				.map(dir -> dir.isAbsolute()
						? dir
						: config.path(HarnessConstants.ROOT_DIR).map(root -> root.resolve(dir)).orElse(dir).toAbsolutePath().normalize());
	}
}
