package dev.fakbattery.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.io.IOException;
import java.util.function.UnaryOperator;

import dev.fakbattery.wire.CanaryForms;
import dev.fakbattery.wire.SecretGuard;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.opentest4j.AssertionFailedError;
import org.opentest4j.TestAbortedException;

@DisplayName("GuardedFailures: a thrown failure leaves the test without the secret, still the same failure")
class GuardedFailuresTests {

	static final String KEY = CanaryForms.freshKey();

	static final SecretGuard GUARD = CanaryForms.guard(KEY);

	@ParameterizedTest(name = "{0}")
	@MethodSource("dev.fakbattery.wire.CanaryForms#forms")
	@DisplayName("a failure holding the key in each form: the same type and frames, the redaction named, the key nowhere")
	void failureInEachForm(String form, String expected, UnaryOperator<String> encode) {
		AssertionFailedError thrown = new AssertionFailedError("failure message " + encode.apply(KEY));
		assertThat(GUARD.find(FailureRedaction.printed(thrown))).as("the plant is there to find").isPresent();

		Throwable redacted = FailureRedaction.redacted(thrown, GUARD);

		assertThat(redacted).isExactlyInstanceOf(AssertionFailedError.class).hasMessageContaining("[REDACTED api.key.env");
		assertThat(redacted.getStackTrace()).isEqualTo(thrown.getStackTrace());
		assertThat(GUARD.find(FailureRedaction.printed(redacted))).isEmpty();
	}

	@Test
	@DisplayName("causes and suppressed ones are copied the same way; an abort stays an abort")
	void causesAndSuppressed() {
		IllegalStateException thrown = new IllegalStateException("request failed", new IOException("Authorization: Bearer " + KEY));
		thrown.addSuppressed(new TestAbortedException("skipped for " + KEY));

		Throwable redacted = FailureRedaction.redacted(thrown, GUARD);

		assertThat(redacted).isExactlyInstanceOf(IllegalStateException.class).hasMessage("request failed");
		assertThat(redacted.getCause()).isExactlyInstanceOf(IOException.class)
				.hasMessage("Authorization: Bearer [REDACTED api.key.env]");
		assertThat(redacted.getCause().getStackTrace()).isEqualTo(thrown.getCause().getStackTrace());
		assertThat(redacted.getSuppressed()).singleElement()
				.isExactlyInstanceOf(TestAbortedException.class)
				.extracting(Throwable::getMessage)
				.isEqualTo("skipped for [REDACTED api.key.env]");
		assertThat(GUARD.find(FailureRedaction.printed(redacted))).isEmpty();
	}

	@Test
	@DisplayName("a type without a message constructor: a failure stays a failure, an error an error, each naming the type")
	void typeWithoutMessageConstructor() {
		Throwable failure = FailureRedaction.redacted(new NoMessageConstructorFailureTestCase("expected " + KEY), GUARD);
		Throwable error = FailureRedaction.redacted(new NoMessageConstructorErrorTestCase("observed " + KEY), GUARD);

		assertThat(failure).isInstanceOf(AssertionError.class)
				.hasMessage(NoMessageConstructorFailureTestCase.class.getName() + ": expected [REDACTED api.key.env]");
		assertThat(error).isNotInstanceOf(AssertionError.class)
				.hasMessage(NoMessageConstructorErrorTestCase.class.getName() + ": observed [REDACTED api.key.env]");
	}

	@Test
	@DisplayName("a type that prints the key whatever its message becomes one line naming that it held a secret")
	void typeThatPrintsTheKeyAnyway() {
		Throwable redacted = FailureRedaction.redacted(new LeakingToStringTestCase("a check failed"), GUARD);

		assertThat(redacted).isInstanceOf(AssertionError.class)
				.hasMessage(LeakingToStringTestCase.class.getName() + ": " + FailureRedaction.HELD);
		assertThat(GUARD.find(FailureRedaction.printed(redacted))).isEmpty();
	}

	@Test
	@DisplayName("a failure without the key, or any failure with no secret to guard, is thrown as it is")
	void nothingToRedact() {
		AssertionFailedError clean = new AssertionFailedError("expected 200, observed 500");
		AssertionFailedError holding = new AssertionFailedError("failure message " + KEY);

		assertThat(FailureRedaction.redacted(clean, GUARD)).isSameAs(clean);
		assertThat(FailureRedaction.redacted(holding, SecretGuard.none())).isSameAs(holding);
	}

	@Test
	@DisplayName("the interceptor rethrows the redacted copy of what the invocation threw, and returns what it returned")
	void interceptorRethrowsTheCopy() throws Throwable {
		GuardedFailures interceptor = new GuardedFailures(() -> GUARD);
		AssertionFailedError thrown = new AssertionFailedError("failure message " + KEY);

		Throwable rethrown = catchThrowable(() -> interceptor.interceptTestMethod(() -> {
			throw thrown;
		}, null, null));

		assertThat(rethrown).isExactlyInstanceOf(AssertionFailedError.class)
				.hasMessage("failure message [REDACTED api.key.env]")
				.isNotSameAs(thrown);
		assertThat(interceptor.<String>interceptTestFactoryMethod(() -> "made", null, null)).isEqualTo("made");
	}

	/** An assertion error whose only constructor is not public. */
	static final class NoMessageConstructorFailureTestCase extends AssertionError {

		private static final long serialVersionUID = 1L;

		NoMessageConstructorFailureTestCase(String message) {
			super(message);
		}
	}

	/** An exception whose only constructor is not public. */
	static final class NoMessageConstructorErrorTestCase extends RuntimeException {

		private static final long serialVersionUID = 1L;

		NoMessageConstructorErrorTestCase(String message) {
			super(message);
		}
	}

	/** An assertion error whose text holds the key whatever its message: its {@code toString} adds it. */
	public static final class LeakingToStringTestCase extends AssertionError {

		private static final long serialVersionUID = 1L;

		public LeakingToStringTestCase(String message) {
			super(message);
		}

		@Override
		public String toString() {
			return super.toString() + " (key " + KEY + ")";
		}
	}
}
