package dev.fakbattery.conformance.rules;

import dev.fakbattery.core.ConfigKeys;
import dev.fakbattery.core.HarnessConfig;

import org.apiguardian.api.API;

/**
 * How a kit message names a setting the reader is to give: as the launcher that started the kit takes it
 * ({@code kit.launcher}): {@code -DKEY=VALUE} in a Maven build, {@code --config KEY=VALUE} for the standalone jar.
 *
 * @since 0.10
 */
@API(status = API.Status.INTERNAL, since = "0.10")
public final class KitFlags {

	/** The {@code kit.launcher} of the standalone jar: {@value}. */
	public static final String STANDALONE = "standalone";

	private KitFlags() {
	}

	/** {@code -Dkey=value}, or {@code --config key=value} where the standalone jar started the kit. */
	public static String set(HarnessConfig config, String key, String value) {
		return (STANDALONE.equals(config.get(ConfigKeys.KIT_LAUNCHER)) ? "--config " : "-D") + key + "=" + value;
	}
}
