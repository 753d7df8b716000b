package dev.fakbattery.conformance.fault;

import java.lang.reflect.Method;
import java.util.Optional;

import dev.fakbattery.conformance.rules.NotJudged;
import dev.fakbattery.wire.Dialect;

import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.InvocationInterceptor;
import org.junit.jupiter.api.extension.ReflectiveInvocationContext;

/**
 * Evidence before verdict in the fault kit: a rule of a dialect whose gateway did not reach the fault upstream at the
 * kit's probe is not run: {@link dev.fakbattery.conformance.rules.RuleOutcome#NOT_JUDGED} with the probe's line. Each
 * rule's own checks demand the upstream's side of its fault (the call that stalled, was reset or flooded; the request
 * under the limit served), so a gateway that reached the upstream is judged on them.
 */
final class FaultEvidenceExtension implements InvocationInterceptor {

	@Override
	public void interceptTestTemplateMethod(Invocation<Void> invocation, ReflectiveInvocationContext<Method> context,
			ExtensionContext extension) throws Throwable {
		Optional<String> unreached = context.getTarget()
				.filter(FaultKit.class::isInstance)
				.map(FaultKit.class::cast)
				.flatMap(kit -> context.getArguments()
						.stream()
						.filter(Dialect.class::isInstance)
						.map(Dialect.class::cast)
						.findFirst()
						.flatMap(kit::unreached));
		if (unreached.isPresent()) {
			invocation.skip();
			String[] name = context.getExecutable().getName().split("_");
			throw new NotJudged((name.length > 1 ? name[1] : name[0]) + " [" + extension.getDisplayName() + "]: the kit's probe did "
					+ "not reach the fault upstream through the gateway, so no rule is judged (" + unreached.get() + ")");
		}
		invocation.proceed();
	}
}
