package dev.fakbattery.conformance.rules;

import java.util.Optional;
import java.util.Set;

import dev.fakbattery.api.JupiterConfig;
import dev.fakbattery.api.NestedReport;
import dev.fakbattery.core.ConfigKeys;
import dev.fakbattery.core.HarnessConstants;

import org.apiguardian.api.API;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestExecutionExceptionHandler;
import org.opentest4j.TestAbortedException;

/**
 * The conformance classes the gateway claims ({@code gateway.classes}), applied to every rule run of a kit class: a
 * failure of a rule whose class is not claimed ends the run {@link NotClaimed} (aborted, its failure's text kept, its
 * cause the failure), a pending one stays pending but aborted; a claimed rule's outcome is untouched, and so is every
 * run that did not fail. Each rule run's entry in the report is labelled with its class (the tag {@code relay}, and
 * {@code not claimed} where the gateway does not claim it). A {@code gateway.classes} that names no class fails the kit
 * class before any rule runs, naming the parameter, the value and the classes.
 */
@API(status = API.Status.INTERNAL, since = "0.8")
public final class ClaimedClasses implements BeforeAllCallback, BeforeEachCallback, TestExecutionExceptionHandler {

	/** The Allure label that carries a rule run's class: {@value}. */
	public static final String LABEL = "tag";

	@Override
	public void beforeAll(ExtensionContext context) {
		claimed(context);
	}

	@Override
	public void beforeEach(ExtensionContext context) {
		rule(context).ifPresent(rule -> {
			NestedReport.label(context, LABEL, rule.conformanceClass().id());
			if (!claimed(context).contains(rule.conformanceClass())) {
				NestedReport.label(context, LABEL, "not claimed");
			}
		});
	}

	@Override
	public void handleTestExecutionException(ExtensionContext context, Throwable thrown) throws Throwable {
		Optional<KitRule> rule = rule(context);
		if (rule.isEmpty() || thrown instanceof TestAbortedException) {
			throw thrown;
		}
		Set<ConformanceClass> claimed = claimed(context);
		if (claimed.contains(rule.get().conformanceClass())) {
			throw thrown;
		}
		String message = RuleOutcome.message(Optional.of(thrown));
		if (message.startsWith(RuleOutcome.PENDING_PREFIX)) {
			throw new TestAbortedException(message, thrown);
		}
		throw new NotClaimed(rule.get(), ConformanceClass.claim(claimed), message.isEmpty() ? thrown.toString() : message, thrown);
	}

	/** The classes claimed in {@code context}'s configuration ({@link ConfigKeys#GATEWAY_CLASSES}). */
	static Set<ConformanceClass> claimed(ExtensionContext context) {
		return ConformanceClass.parse(JupiterConfig.of(context).get(ConfigKeys.GATEWAY_CLASSES), HarnessConstants.GATEWAY_CLASSES);
	}

	private static Optional<KitRule> rule(ExtensionContext context) {
		return context.getTestMethod().flatMap(m -> KitRules.byMethod(m.getName()));
	}
}
