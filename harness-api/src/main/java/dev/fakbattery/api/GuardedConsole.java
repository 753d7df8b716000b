package dev.fakbattery.api;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.util.function.Supplier;

import dev.fakbattery.core.RunSecrets;
import dev.fakbattery.wire.RedactingOutputStream;
import dev.fakbattery.wire.SecretGuard;

import org.apiguardian.api.API;
import org.junit.platform.launcher.LauncherSession;
import org.junit.platform.launcher.LauncherSessionListener;

/**
 * Keeps the secret out of the test JVM's console, and so out of what Surefire writes of it
 * ({@code target/surefire-reports/*-output.txt}, the XML's {@code system-out}): while a JUnit launcher session is open,
 * {@code System.out} and {@code System.err} pass what is printed through a {@link RedactingOutputStream} of the JVM's
 * guard ({@link RunSecrets#jvm()}), each line redacted before it reaches the console below, and the rest of an
 * unfinished line passed on when the session closes. A session opened inside one already guarded (a nested launcher)
 * changes nothing; with no secret to guard the console is left as it is.
 *
 * <p>A {@link LauncherSessionListener} registered in {@code META-INF/services}: it wraps the console before the
 * session's tests run, after Surefire has started capturing it.
 *
 * @since 0.10
 */
@API(status = API.Status.INTERNAL, since = "0.10")
public final class GuardedConsole implements LauncherSessionListener {

	private final Supplier<SecretGuard> guard;

	private Guarded out;

	private Guarded err;

	/** The launcher's service loader needs it: the JVM's guard. */
	public GuardedConsole() {
		this(RunSecrets::jvm);
	}

	GuardedConsole(Supplier<SecretGuard> guard) {
		this.guard = guard;
	}

	@Override
	public void launcherSessionOpened(LauncherSession session) {
		SecretGuard secrets = guard.get();
		if (secrets.isEmpty() || System.out instanceof Guarded || System.err instanceof Guarded) {
			return;
		}
		out = new Guarded(System.out, secrets);
		err = new Guarded(System.err, secrets);
		System.setOut(out);
		System.setErr(err);
	}

	@Override
	public void launcherSessionClosed(LauncherSession session) {
		if (out == null) {
			return;
		}
		out.release();
		err.release();
		if (System.out == out) {
			System.setOut(out.below);
		}
		if (System.err == err) {
			System.setErr(err.below);
		}
		out = null;
		err = null;
	}

	/** A console stream redacting into the one it replaced. */
	static final class Guarded extends PrintStream {

		final PrintStream below;

		private final RedactingOutputStream redacting;

		Guarded(PrintStream below, SecretGuard guard) {
			this(below, new RedactingOutputStream(below, guard));
		}

		private Guarded(PrintStream below, RedactingOutputStream redacting) {
			super(redacting, true, below.charset());
			this.below = below;
			this.redacting = redacting;
		}

		/** Passes on what it holds, an unfinished line too. */
		void release() {
			flush();
			try {
				redacting.finish();
			}
			catch (IOException e) {
				throw new UncheckedIOException(e);
			}
		}
	}
}
