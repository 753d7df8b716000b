package dev.fakbattery.api;

import java.lang.reflect.Constructor;
import java.lang.reflect.Method;
import java.util.function.Supplier;

import dev.fakbattery.core.RunSecrets;
import dev.fakbattery.wire.SecretGuard;

import org.apiguardian.api.API;
import org.junit.jupiter.api.extension.DynamicTestInvocationContext;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.InvocationInterceptor;
import org.junit.jupiter.api.extension.ReflectiveInvocationContext;

/**
 * Keeps the secret out of what a failing test reports: what a test class's constructor, a lifecycle method, a test,
 * test template or test factory method, or a dynamic test throws passes the JVM's guard ({@link RunSecrets#jvm()})
 * before it leaves the test, so that Surefire's and Failsafe's reports ({@code target/surefire-reports/*.txt}, the
 * XML's {@code failure} message and trace), Maven's console and every other listener get a throwable without it. A
 * throwable whose message, trace, cause or suppressed ones hold the secret in any form the guard knows is replaced by a
 * {@link FailureRedaction redacted copy}: the same type where it has a public message constructor, the same stack
 * trace, {@code [REDACTED api.key.env]} where the secret was; a failure stays a failure, an abort an abort.
 *
 * <p>A Jupiter extension registered in {@code META-INF/services/org.junit.jupiter.api.extension.Extension}, which
 * Jupiter loads only with extension auto-detection on: the build's Surefire and Failsafe pass
 * {@code junit.jupiter.extensions.autodetection.enabled=true} and {@code junit.jupiter.extensions.autodetection.include}
 * naming this class alone. What another extension's callback throws (an {@code AfterEachCallback}) is not an
 * invocation it intercepts.
 *
 * @since 0.10
 */
@API(status = API.Status.INTERNAL, since = "0.10")
public final class GuardedFailures implements InvocationInterceptor {

	private final Supplier<SecretGuard> guard;

	/** Jupiter's service loader needs it: the JVM's guard, read when a failure is thrown. */
	public GuardedFailures() {
		this(RunSecrets::jvm);
	}

	GuardedFailures(Supplier<SecretGuard> guard) {
		this.guard = guard;
	}

	@Override
	public <T> T interceptTestClassConstructor(Invocation<T> invocation, ReflectiveInvocationContext<Constructor<T>> invocationContext,
			ExtensionContext extensionContext) throws Throwable {
		return guarded(invocation);
	}

	@Override
	public void interceptBeforeAllMethod(Invocation<Void> invocation, ReflectiveInvocationContext<Method> invocationContext,
			ExtensionContext extensionContext) throws Throwable {
		guarded(invocation);
	}

	@Override
	public void interceptBeforeEachMethod(Invocation<Void> invocation, ReflectiveInvocationContext<Method> invocationContext,
			ExtensionContext extensionContext) throws Throwable {
		guarded(invocation);
	}

	@Override
	public void interceptTestMethod(Invocation<Void> invocation, ReflectiveInvocationContext<Method> invocationContext,
			ExtensionContext extensionContext) throws Throwable {
		guarded(invocation);
	}

	@Override
	public <T> T interceptTestFactoryMethod(Invocation<T> invocation, ReflectiveInvocationContext<Method> invocationContext,
			ExtensionContext extensionContext) throws Throwable {
		return guarded(invocation);
	}

	@Override
	public void interceptTestTemplateMethod(Invocation<Void> invocation, ReflectiveInvocationContext<Method> invocationContext,
			ExtensionContext extensionContext) throws Throwable {
		guarded(invocation);
	}

	@Override
	public void interceptDynamicTest(Invocation<Void> invocation, DynamicTestInvocationContext invocationContext,
			ExtensionContext extensionContext) throws Throwable {
		guarded(invocation);
	}

	@Override
	public void interceptAfterEachMethod(Invocation<Void> invocation, ReflectiveInvocationContext<Method> invocationContext,
			ExtensionContext extensionContext) throws Throwable {
		guarded(invocation);
	}

	@Override
	public void interceptAfterAllMethod(Invocation<Void> invocation, ReflectiveInvocationContext<Method> invocationContext,
			ExtensionContext extensionContext) throws Throwable {
		guarded(invocation);
	}

	private <T> T guarded(Invocation<T> invocation) throws Throwable {
		try {
			return invocation.proceed();
		}
		catch (Throwable thrown) {
			throw FailureRedaction.redacted(thrown, guard.get());
		}
	}
}
