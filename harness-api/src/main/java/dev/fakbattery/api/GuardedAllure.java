package dev.fakbattery.api;

import dev.fakbattery.core.RunSecrets;
import dev.fakbattery.wire.SecretGuard;

import org.apiguardian.api.API;
import org.junit.platform.launcher.LauncherSession;
import org.junit.platform.launcher.LauncherSessionListener;

import io.qameta.allure.Allure;
import io.qameta.allure.AllureLifecycle;

/**
 * Guards the Allure results as they are written: for a JUnit launcher session, Allure's global lifecycle, the one
 * allure-jupiter and the rung reports write through, writes through a {@link GuardedResultsWriter} of the JVM's guard
 * ({@link RunSecrets#jvm()}) into {@code allure.results.directory}; the session's close gives the previous lifecycle
 * back. A session made inside one already guarded changes nothing; with no secret to guard Allure is left as it is.
 *
 * <p>A {@link LauncherSessionListener} registered in {@code META-INF/services}. allure-jupiter's listener takes Allure's
 * global lifecycle when the launcher makes it, which is after the launcher made its session listeners and before it
 * opens the session: so the lifecycle is set when this listener is made, not when the session opens.
 *
 * @since 0.10
 */
@API(status = API.Status.INTERNAL, since = "0.10")
public final class GuardedAllure implements LauncherSessionListener {

	private static volatile AllureLifecycle guarded;

	private AllureLifecycle previous;

	/** The launcher's service loader makes it, before the launcher's test execution listeners: the JVM's guard. */
	public GuardedAllure() {
		this(RunSecrets.jvm());
	}

	GuardedAllure(SecretGuard guard) {
		AllureLifecycle current = Allure.getLifecycle();
		if (guard.isEmpty() || current == guarded) {
			return;
		}
		previous = current;
		guarded = new AllureLifecycle(GuardedResultsWriter.fileSystem(guard));
		Allure.setLifecycle(guarded);
	}

	@Override
	public void launcherSessionClosed(LauncherSession session) {
		if (previous == null) {
			return;
		}
		if (Allure.getLifecycle() == guarded) {
			Allure.setLifecycle(previous);
			guarded = null;
		}
		previous = null;
	}
}
