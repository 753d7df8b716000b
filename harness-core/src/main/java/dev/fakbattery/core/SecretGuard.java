package dev.fakbattery.core;

import java.util.Optional;
import java.util.function.Function;

import org.apiguardian.api.API;

/**
 * Refuses to let the API key reach an artifact: the key's value is read from the environment
 * variable named by {@code api.key.env} only to check that no output contains it.
 */
@API(status = API.Status.INTERNAL, since = "0.6")
public final class SecretGuard {

	private SecretGuard() {
	}

	public static void requireAbsent(String text, String where, HarnessConfig config, Function<String, String> env) {
		Optional<String> variable = config.string(HarnessConstants.API_KEY_ENV);
		if (variable.isEmpty()) {
			return;
		}
		String secret = env.apply(variable.get());
		if (secret != null && secret.length() >= 4 && text.contains(secret)) {
			throw new IllegalStateException(where + " would contain the value of the environment variable "
					+ variable.get() + " (api.key.env); refused to write it");
		}
	}
}
