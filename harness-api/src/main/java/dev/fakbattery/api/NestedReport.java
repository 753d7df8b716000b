package dev.fakbattery.api;

import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

import org.apiguardian.api.API;
import org.junit.jupiter.api.extension.ExtensionContext;

import io.qameta.allure.Allure;
import io.qameta.allure.AllureLifecycle;
import io.qameta.allure.model.Label;

/**
 * The Allure lifecycle of a run of rules launched inside a running test whose rule runs belong in the battery report
 * (the wire rung running its kit: one run for its artifact and for the report, not two). Allure's current test case is
 * kept per thread on one global lifecycle, and a launcher run on it would end the running test's case; so the nested
 * run reports on a lifecycle of its own, registered here and named to the run's tests by the configuration parameter
 * {@value #PARAMETER}, where {@link WireRuleReport}'s labels find it.
 *
 * @since 0.7
 */
@API(status = API.Status.INTERNAL, since = "0.7")
public final class NestedReport {

	/** The configuration parameter naming a nested run's lifecycle ({@link #open}). */
	public static final String PARAMETER = "fakbattery.allure.nested";

	private static final Map<String, AllureLifecycle> LIFECYCLES = new ConcurrentHashMap<>();

	private NestedReport() {
	}

	/** Registers {@code lifecycle} for one nested run: the value of {@value #PARAMETER} to give it; {@link #close} after. */
	public static String open(AllureLifecycle lifecycle) {
		String key = UUID.randomUUID().toString();
		LIFECYCLES.put(key, lifecycle);
		return key;
	}

	/** Forgets the lifecycle {@link #open} registered under {@code key}. */
	public static void close(String key) {
		LIFECYCLES.remove(key);
	}

	/**
	 * Whether the test running on this thread is in the report itself: Allure's current case reports a test of
	 * {@code testClass} run by the outer launcher, not a test that runs it inside its own (an EngineTestKit self-test).
	 */
	public static boolean reports(Class<?> testClass) {
		AllureLifecycle lifecycle = Allure.getLifecycle();
		Optional<String> current = lifecycle.getCurrentTestCase();
		AtomicBoolean ours = new AtomicBoolean();
		current.ifPresent(uuid -> lifecycle.updateTestCase(uuid, result -> ours.set(result.getLabels()
				.stream()
				.anyMatch(label -> AllureTest.UNIQUE_ID.equals(label.getName())
						&& label.getValue().contains("[class:" + testClass.getName() + "]")))));
		return ours.get();
	}

	/**
	 * Adds the label {@code name}: {@code value} to the report's entry of {@code context}'s test, where the report has
	 * one (in a nested run, its lifecycle's); nothing where Allure reports another test or none.
	 */
	public static void label(ExtensionContext context, String name, String value) {
		AllureTest.of(context)
				.ifPresent(uuid -> lifecycle(context).updateTestCase(uuid,
						result -> result.getLabels().add(new Label().setName(name).setValue(value))));
	}

	/** The lifecycle reporting {@code context}'s test: its nested run's ({@value #PARAMETER}), else Allure's global one. */
	static AllureLifecycle lifecycle(ExtensionContext context) {
		return context.getConfigurationParameter(PARAMETER).map(LIFECYCLES::get).orElseGet(Allure::getLifecycle);
	}
}
