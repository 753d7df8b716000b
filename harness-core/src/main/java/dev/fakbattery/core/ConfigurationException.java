package dev.fakbattery.core;

import org.apiguardian.api.API;

/**
 * A misconfiguration: a parameter missing, unparseable or out of range. Its message names the parameter, the value seen
 * and the fix; it is neither a failure of the target nor a skip.
 *
 * @since 0.6
 */
@API(status = API.Status.STABLE, since = "0.6")
public class ConfigurationException extends RuntimeException {

	private static final long serialVersionUID = 1L;

	public ConfigurationException(String message) {
		super(message);
	}

	public ConfigurationException(String message, Throwable cause) {
		super(message, cause);
	}
}
