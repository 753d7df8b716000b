package dev.fakbattery.core.workload;

import java.nio.file.Path;
import java.util.List;

import dev.fakbattery.core.ConfigKeys;
import dev.fakbattery.core.ConfigurationException;
import dev.fakbattery.core.HarnessConfig;
import dev.fakbattery.core.HarnessConstants;

import org.apiguardian.api.API;

/**
 * Resolves the {@link Workload} from the configuration ({@link HarnessConstants#WORKLOAD} and its parameters). A bad
 * value fails naming the parameter, the value and the fix.
 *
 * @since 0.3
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.6")
public final class Workloads {

	/** The accepted {@code workload} values. */
	public static final List<String> NAMES = List.of("fixed", "random", "sharegpt", "prefix", "agentic");

	private Workloads() {
	}

	/**
	 * The configured workload; {@code fixed} with {@code fixedMaxTokens} when {@code workload} is unset.
	 *
	 * @param defaultSeed the seed when {@code workload.seed} is unset
	 */
	public static Workload from(HarnessConfig config, int fixedMaxTokens, long defaultSeed) {
		String name = config.get(ConfigKeys.WORKLOAD);
		long seed = config.string(HarnessConstants.WORKLOAD_SEED).map(value -> seed(value)).orElse(defaultSeed);
		int output = config.get(ConfigKeys.OUTPUT_LEN);
		return switch (name) {
			case "fixed" -> new FixedWorkload(fixedMaxTokens);
			case "random" -> new RandomWorkload(config.get(ConfigKeys.INPUT_LEN), output,
					config.get(ConfigKeys.RANGE_RATIO), config.get(ConfigKeys.IGNORE_EOS), seed);
			case "sharegpt" -> shareGpt(config, seed);
			case "prefix" -> new PrefixWorkload(config.get(ConfigKeys.PREFIX_COUNT),
					config.get(ConfigKeys.PREFIX_LEN), config.get(ConfigKeys.PREFIX_SUFFIX_LEN), output,
					seed);
			case "agentic" -> new AgenticWorkload(config.get(ConfigKeys.AGENTIC_TURNS),
					config.get(ConfigKeys.AGENTIC_INJECTION_SHARE), output, seed);
			default -> throw new ConfigurationException("Unable to parse " + HarnessConstants.WORKLOAD + " value [" + name
					+ "]: expected one of " + NAMES + ". Fix: pass -D" + HarnessConstants.WORKLOAD + "=random or remove it to use the "
					+ "default (fixed).");
		};
	}

	private static ShareGptWorkload shareGpt(HarnessConfig config, long seed) {
		Path path = config.rootedPath(HarnessConstants.DATASET_PATH)
				.orElseThrow(() -> new ConfigurationException(
						HarnessConstants.WORKLOAD + "=sharegpt needs " + HarnessConstants.DATASET_PATH + ". Fix: pass -D"
								+ HarnessConstants.DATASET_PATH
								+ "=fixtures/workloads/sharegpt-sample.json (or a ShareGPT JSON file of yours; "
								+ "nothing is downloaded)."));
		try {
			return ShareGptWorkload.load(path, seed);
		}
		catch (IllegalArgumentException e) {
			throw new ConfigurationException("Unable to use " + HarnessConstants.DATASET_PATH + " value [" + path + "]: "
					+ e.getMessage() + ". Fix: pass -D" + HarnessConstants.DATASET_PATH + "=PATH of a ShareGPT-format JSON file.", e);
		}
	}

	private static long seed(String value) {
		try {
			return Long.parseLong(value.trim());
		}
		catch (NumberFormatException e) {
			throw new ConfigurationException("Unable to parse " + HarnessConstants.WORKLOAD_SEED + " value [" + value
					+ "]: expected an integer. Fix: pass -D" + HarnessConstants.WORKLOAD_SEED + "=7 or remove it to use the default.");
		}
	}
}
