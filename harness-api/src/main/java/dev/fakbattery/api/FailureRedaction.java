package dev.fakbattery.api;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Objects;
import java.util.Set;

import dev.fakbattery.wire.SecretGuard;

/**
 * A thrown failure without the secret: the throwable itself when its printed stack trace (message, frames, causes,
 * suppressed) holds no secret in any form the guard knows, else a copy with each message's lines
 * {@linkplain SecretGuard#redactText(byte[]) redacted}, the same frames, and its causes and suppressed throwables
 * copied the same way. The copy is of the same type where that type has a public constructor taking the message alone
 * and keeps it; otherwise a {@link RedactedAssertionError} (for an {@link AssertionError}, so it still reads as a
 * failure) or a {@link RedactedException}, whose message starts with the original type's name. A copy that would
 * still print the secret (a type whose {@code getMessage} or {@code toString} adds it back) becomes one of these two
 * with the message {@value #HELD}, its frames redacted.
 */
final class FailureRedaction {

	/** The message of a failure whose every copy still printed the secret: {@value}. */
	static final String HELD = "[REDACTED: the failure's text held a secret]";

	private FailureRedaction() {
	}

	/** {@code thrown} when it prints no secret of {@code guard}, else a redacted copy that prints none. */
	static Throwable redacted(Throwable thrown, SecretGuard guard) {
		if (guard.isEmpty() || guard.find(printed(thrown)).isEmpty()) {
			return thrown;
		}
		Throwable copy = copy(thrown, guard, Collections.newSetFromMap(new IdentityHashMap<>()));
		if (guard.find(printed(copy)).isEmpty()) {
			return copy;
		}
		Throwable bare = fallback(thrown, thrown.getClass().getName() + ": " + HELD);
		bare.setStackTrace(frames(thrown.getStackTrace(), guard));
		return bare;
	}

	private static Throwable copy(Throwable thrown, SecretGuard guard, Set<Throwable> seen) {
		seen.add(thrown);
		String message = thrown.getMessage() == null ? null : redact(thrown.getMessage(), guard);
		Throwable copy = sameType(thrown, message);
		if (copy == null) {
			copy = fallback(thrown, thrown.getClass().getName() + (message == null ? "" : ": " + message));
		}
		copy.setStackTrace(frames(thrown.getStackTrace(), guard));
		Throwable cause = thrown.getCause();
		if (cause != null && !seen.contains(cause)) {
			try {
				copy.initCause(copy(cause, guard, seen));
			}
			catch (IllegalStateException | IllegalArgumentException alreadySet) {
				copy.addSuppressed(copy(cause, guard, seen));
			}
		}
		for (Throwable suppressed : thrown.getSuppressed()) {
			if (!seen.contains(suppressed)) {
				copy.addSuppressed(copy(suppressed, guard, seen));
			}
		}
		return copy;
	}

	/** A new {@code thrown} of the same type with {@code message}, by its public message constructor (none for no message); null when none keeps it. */
	private static Throwable sameType(Throwable thrown, String message) {
		for (Class<?> parameter : message == null ? new Class<?>[]{ null } : new Class<?>[]{ String.class, Object.class }) {
			try {
				Object made = parameter == null
						? thrown.getClass().getConstructor().newInstance()
						: thrown.getClass().getConstructor(parameter).newInstance(message);
				if (made instanceof Throwable copy && Objects.equals(copy.getMessage(), message) && copy.getCause() == null) {
					return copy;
				}
			}
			catch (ReflectiveOperationException | RuntimeException | LinkageError noSuchConstructor) {
				// the next constructor, else the fallback
			}
		}
		return null;
	}

	private static Throwable fallback(Throwable thrown, String message) {
		return thrown instanceof AssertionError ? new RedactedAssertionError(message) : new RedactedException(message);
	}

	private static StackTraceElement[] frames(StackTraceElement[] frames, SecretGuard guard) {
		StackTraceElement[] kept = frames.clone();
		for (int i = 0; i < kept.length; i++) {
			if (guard.find(kept[i].toString()).isPresent()) {
				kept[i] = new StackTraceElement("[REDACTED]", "[REDACTED]", null, -1);
			}
		}
		return kept;
	}

	private static String redact(String text, SecretGuard guard) {
		return new String(guard.redactText(text.getBytes(StandardCharsets.UTF_8)), StandardCharsets.UTF_8);
	}

	/** What a report prints of {@code thrown}: its stack trace, causes and suppressed ones included. */
	static String printed(Throwable thrown) {
		StringWriter out = new StringWriter();
		try (PrintWriter writer = new PrintWriter(out)) {
			thrown.printStackTrace(writer);
		}
		catch (RuntimeException unprintable) {
			return out + "\n" + unprintable;
		}
		return out.toString();
	}

	/** A failed assertion whose type had no message constructor to copy it by; its message starts with that type's name. */
	static final class RedactedAssertionError extends AssertionError {

		private static final long serialVersionUID = 1L;

		RedactedAssertionError(String message) {
			super(message);
		}
	}

	/** An error whose type had no message constructor to copy it by; its message starts with that type's name. */
	static final class RedactedException extends RuntimeException {

		private static final long serialVersionUID = 1L;

		RedactedException(String message) {
			super(message);
		}
	}
}
