package dev.fakbattery.conformance.wire;

import java.lang.reflect.Method;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

import dev.fakbattery.conformance.rules.ClientRule;
import dev.fakbattery.conformance.rules.KitRule;
import dev.fakbattery.conformance.rules.NotJudged;
import dev.fakbattery.conformance.rules.WireRule;
import dev.fakbattery.wire.Dialect;

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
		Optional<KitRule> rule = rule(context.getExecutable().getName());
		if (kit.isEmpty() || rule.isEmpty()) {
			invocation.proceed();
			return;
		}
		String run = rule.get().id() + " [" + extension.getDisplayName() + "]";
		Optional<String> unreached = context.getArguments()
				.stream()
				.filter(Dialect.class::isInstance)
				.map(Dialect.class::cast)
				.findFirst()
				.flatMap(kit.get()::unreached);
		if (unreached.isPresent()) {
			invocation.skip();
			throw new NotJudged(run + ": the kit's probe did not reach its upstream through the gateway, so no rule is judged ("
					+ unreached.get() + ")");
		}
		kit.get().beginEvidence();
		kit.get().beginCases();
		List<WireConformanceKit.Tracked> sent;
		FailingCases failing;
		Throwable thrown = null;
		try {
			invocation.proceed();
		}
		catch (Throwable t) {
			thrown = t;
		}
		finally {
			sent = kit.get().endEvidence();
			failing = kit.get().endCases();
		}
		Optional<AssertionFailedError> failed = failing.failure(run, thrown);
		if (failed.isPresent()) {
			throw failed.get();
		}
		if (thrown != null) {
			throw thrown;
		}
		List<String> missing = kit.get().missingEvidence(rule.get().evidence(), sent);
		List<String> unprobed = sent.stream()
				.map(WireConformanceKit.Tracked::engine)
				.distinct()
				.flatMap(e -> kit.get().unreached(e).stream())
				.toList();
		if (!unprobed.isEmpty() || !missing.isEmpty()) {
			throw new NotJudged(run + ": its checks passed without the evidence it needs (" + rule.get().evidence().text() + "): "
					+ String.join("; ", Stream.concat(unprobed.stream(), missing.stream()).toList()));
		}
	}

	/** The rule a kit method runs, by the id in its name ({@code required_W01_modelAlias}: W01). */
	static Optional<KitRule> rule(String method) {
		String[] parts = method.split("_");
		if (parts.length < 3) {
			return Optional.empty();
		}
		return Stream.<KitRule>concat(Stream.of(WireRule.values()), Stream.of(ClientRule.values()))
				.filter(r -> r.id().equals(parts[1]))
				.findFirst();
	}
}
