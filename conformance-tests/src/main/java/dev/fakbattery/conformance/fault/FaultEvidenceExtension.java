package dev.fakbattery.conformance.fault;

import java.lang.reflect.Method;
import java.util.List;
import java.util.Optional;

import dev.fakbattery.conformance.rules.KitRule;
import dev.fakbattery.conformance.wire.ProbeGate;

import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.InvocationInterceptor;
import org.junit.jupiter.api.extension.ReflectiveInvocationContext;

/**
 * Evidence before verdict in the fault kit. A rule of a dialect whose gateway did not reach the fault upstream at the
 * kit's probe is not run: {@link dev.fakbattery.conformance.rules.RuleOutcome#NOT_JUDGED} with the probe's line. Around
 * every other rule run, the requests it sends are collected, and a run that passed its checks without the evidence its
 * rule needs ({@link KitRule#evidence()}: each request it sent to be served reached the fault upstream, and for F06 and
 * F07 came back to the client as HTTP 200 of the kind asked) ends NOT_JUDGED instead, naming each request that lacked it.
 * The rules themselves ask for the fault upstream's record of a fault request before they judge the answer to it
 * ({@link FaultKit#requireFaultSeen}), so a gateway is not failed for a fault it never got to see.
 */
final class FaultEvidenceExtension implements InvocationInterceptor {

	@Override
	public void interceptTestTemplateMethod(Invocation<Void> invocation, ReflectiveInvocationContext<Method> context,
			ExtensionContext extension) throws Throwable {
		Optional<FaultKit> kit = context.getTarget().filter(FaultKit.class::isInstance).map(FaultKit.class::cast);
		if (kit.isEmpty()) {
			invocation.proceed();
			return;
		}
		Optional<ProbeGate.Made<FaultKit.Tracked>> made = ProbeGate.make(invocation, context, extension.getDisplayName(),
				kit.get()::unreached,
				kit.get()::beginEvidence, kit.get()::endEvidence);
		if (made.isPresent()) {
			List<String> missing = kit.get().missingEvidence(made.get().rule().evidence(), made.get().sent());
			if (!missing.isEmpty()) {
				throw made.get().withoutEvidence(missing);
			}
		}
	}
}
