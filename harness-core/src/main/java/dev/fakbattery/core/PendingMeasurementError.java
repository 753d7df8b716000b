package dev.fakbattery.core;

import org.apiguardian.api.API;

/**
 * A required measurement is missing under a profile that does not allow it. Carries no stack
 * trace: the message says everything. An {@link AssertionError}, so that every test framework reports it as a failure;
 * the message says everything ({@code PENDING_MEASUREMENT: <what> (<how to provide it>)}).
 *
 * @since 0.1
 */
@API(status = API.Status.STABLE, since = "0.6")
public final class PendingMeasurementError extends AssertionError {

	private static final long serialVersionUID = 1L;

	public PendingMeasurementError(String message) {
		super(message);
		setStackTrace(new StackTraceElement[0]);
	}

	@Override
	public synchronized Throwable fillInStackTrace() {
		return this;
	}
}
