package dev.fakbattery.core;

import java.util.Optional;
import java.util.function.Function;

import dev.fakbattery.wire.SecretGuard;

import org.apiguardian.api.API;

/**
 * Which secrets a run's {@link SecretGuard} keeps out of every file: the API key, the value of the environment
 * variable {@code api.key.env} names, read only to be guarded, and the values of the credential request headers the
 * gateway under test is sent ({@link GatewayHeaders}).
 *
 * @since 0.9
 */
@API(status = API.Status.INTERNAL, since = "0.9")
public final class RunSecrets {

	private RunSecrets() {
	}

	/**
	 * The API key of {@code config} (the value {@code env} gives the variable {@code api.key.env} names, if any) and the
	 * values of its credential request headers ({@link GatewayHeaders#guard()}).
	 */
	public static SecretGuard of(HarnessConfig config, Function<String, String> env) {
		return apiKey(config, env).and(GatewayHeaders.of(config, env).guard());
	}

	private static SecretGuard apiKey(HarnessConfig config, Function<String, String> env) {
		return config.string(HarnessConstants.API_KEY_ENV)
				.map(variable -> SecretGuard.of(HarnessConstants.API_KEY_ENV,
						"the value of the environment variable " + variable + " (" + HarnessConstants.API_KEY_ENV + ")",
						env.apply(variable)))
				.orElse(SecretGuard.none());
	}

	/**
	 * The JVM's guard: the API key its system properties name ({@code -Dapi.key.env=NAME}, as Maven passes it to a
	 * test JVM and a command-line tool reads it), read from the environment. Writers without a run's configuration
	 * use it.
	 */
	public static SecretGuard jvm() {
		return of(HarnessConfig.of(name -> Optional.ofNullable(System.getProperty(name)), System.getProperties()::stringPropertyNames),
				System::getenv);
	}

	/** The guard of a run: the JVM's, and the API key {@code config} names. */
	public static SecretGuard forRun(HarnessConfig config) {
		return jvm().and(of(config, System::getenv));
	}
}
