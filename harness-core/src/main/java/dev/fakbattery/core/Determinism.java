package dev.fakbattery.core;

import java.util.Locale;
import java.util.Optional;

import org.apiguardian.api.API;

/**
 * vLLM determinism capability, from {@code determinism} or env {@code FAK_VLLM_DETERMINISM}, failing
 * closed to {@link #UNAVAILABLE} for anything unset or unknown (as fak does).
 *
 * @since 0.1
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.6")
public enum Determinism {
	BATCH_INVARIANCE("engine.vllm.determinism.batch_invariance"),
	DETERMINISTIC_OFFLINE_SCHEDULER("engine.vllm.determinism.deterministic_offline_scheduler"),
	UNAVAILABLE("engine.vllm.determinism.unavailable");

	private final String token;

	Determinism(String token) {
		this.token = token;
	}

	public String token() {
		return token;
	}

	/**
	 * Whether a temperature-0 run may be used as a witness of identical outputs. False for
	 * {@link #UNAVAILABLE}: without an engine determinism mode, equal outputs are not guaranteed.
	 */
	public boolean temperatureZeroWitnessAllowed() {
		return this != UNAVAILABLE;
	}

	public static Determinism resolve(HarnessConfig config) {
		return resolve(config.string(HarnessConstants.DETERMINISM)
				.or(() -> Optional.ofNullable(System.getenv(HarnessConstants.DETERMINISM_ENV))));
	}

	/** Parses a mode name or a full token; anything else is {@link #UNAVAILABLE}. */
	public static Determinism resolve(Optional<String> raw) {
		String value = raw.map(v -> v.trim().toLowerCase(Locale.ROOT)).orElse("");
		for (Determinism mode : values()) {
			if (value.equals(mode.token) || value.equals(mode.name().toLowerCase(Locale.ROOT))) {
				return mode;
			}
		}
		return UNAVAILABLE;
	}
}
