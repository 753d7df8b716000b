package dev.fakbattery.conformance.wire;

import java.lang.reflect.Method;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

import dev.fakbattery.conformance.rules.KitRule;

import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.InvocationInterceptor;
import org.junit.jupiter.api.extension.ReflectiveInvocationContext;
import org.opentest4j.AssertionFailedError;

/**
 * Evidence before verdict: around every rule run of a {@link WireConformanceKit}, the requests it sends are collected, and
 * a run that passed its checks without the evidence its rule needs ({@link KitRule#evidence()}) ends
 * {@link dev.fakbattery.conformance.rules.RuleOutcome#NOT_JUDGED} instead, naming each request that lacked it. A rule of
 * a dialect whose gateway did not reach the kit's upstream at the kit's probe is not run at all: NOT_JUDGED with the
 * probe's line. A failed run stays failed: what it saw was enough to see a failure. Every case of a run is checked, and
 * a run with failing cases fails once, listing each ({@link FailingCases}).
 */
final class EvidenceExtension implements InvocationInterceptor {

	@Override
	public void interceptTestTemplateMethod(Invocation<Void> invocation, ReflectiveInvocationContext<Method> context,
			ExtensionContext extension) throws Throwable {
		Optional<WireConformanceKit> kit = context.getTarget()
				.filter(WireConformanceKit.class::isInstance)
				.map(WireConformanceKit.class::cast);
		if (kit.isEmpty()) {
			invocation.proceed();
			return;
		}
		boolean[] begun = { false };
		Optional<ProbeGate.Made<WireConformanceKit.Tracked>> made = Optional.empty();
		Throwable thrown = null;
		try {
			made = ProbeGate.make(invocation, context, extension.getDisplayName(), kit.get()::unreached, () -> {
				begun[0] = true;
				kit.get().beginEvidence();
				kit.get().beginCases();
			}, kit.get()::endEvidence);
		}
		catch (Throwable t) {
			thrown = t;
		}
		if (begun[0]) {
			FailingCases failing = kit.get().endCases();
			String run = ProbeGate.rule(context.getExecutable().getName()).map(KitRule::id).orElse("?") + " ["
					+ extension.getDisplayName() + "]";
			Optional<AssertionFailedError> failed = failing.failure(run, thrown);
			if (failed.isPresent()) {
				throw failed.get();
			}
		}
		if (thrown != null) {
			throw thrown;
		}
		if (made.isEmpty()) {
			return;
		}
		List<WireConformanceKit.Tracked> sent = made.get().sent();
		List<String> missing = kit.get().missingEvidence(made.get().rule().evidence(), sent);
		List<String> unprobed = sent.stream()
				.map(WireConformanceKit.Tracked::engine)
				.distinct()
				.flatMap(e -> kit.get().unreached(e).stream())
				.toList();
		if (!unprobed.isEmpty() || !missing.isEmpty()) {
			throw made.get().withoutEvidence(Stream.concat(unprobed.stream(), missing.stream()).toList());
		}
	}
}
