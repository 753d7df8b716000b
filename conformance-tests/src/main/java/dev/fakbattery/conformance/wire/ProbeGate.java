package dev.fakbattery.conformance.wire;

import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Stream;

import dev.fakbattery.conformance.rules.ClientRule;
import dev.fakbattery.conformance.rules.FaultRule;
import dev.fakbattery.conformance.rules.KitRule;
import dev.fakbattery.conformance.rules.NotJudged;
import dev.fakbattery.conformance.rules.WireRule;
import dev.fakbattery.wire.Dialect;

import org.apiguardian.api.API;
import org.junit.jupiter.api.extension.InvocationInterceptor.Invocation;
import org.junit.jupiter.api.extension.ReflectiveInvocationContext;

/**
 * What the kits' evidence extensions share before a rule run: the rule a kit method runs, and the gate that ends a run
 * {@link dev.fakbattery.conformance.rules.RuleOutcome#NOT_JUDGED} without making it when the kit's probe of the run's
 * dialect did not reach the kit's upstream.
 *
 * @since 0.8
 */
@API(status = API.Status.INTERNAL, since = "0.8")
public final class ProbeGate {

	private ProbeGate() {
	}

	/**
	 * Makes the rule run of {@code invocation} on {@code target} ({@code vllm stream}) past the probe's gate ({@link #requireProbed}), collecting the requests it
	 * sends from {@code begin} to {@code end}: its rule, its name ({@code W03 [vllm stream]}) and those requests. Empty,
	 * the method run plainly, when it runs no rule of the indexes.
	 */
	public static <T> Optional<Made<T>> make(Invocation<Void> invocation, ReflectiveInvocationContext<Method> context,
			String target, Function<Dialect, Optional<String>> unreached, Runnable begin, Supplier<List<T>> end)
			throws Throwable {
		Optional<KitRule> rule = rule(context.getExecutable().getName());
		if (rule.isEmpty()) {
			invocation.proceed();
			return Optional.empty();
		}
		String run = rule.get().id() + " [" + target + "]";
		requireProbed(invocation, context, run, unreached);
		begin.run();
		List<T> sent;
		try {
			invocation.proceed();
		}
		finally {
			sent = end.get();
		}
		return Optional.of(new Made<>(rule.get(), run, sent));
	}

	/**
	 * A rule run that was made: its rule, its name and the requests it sent.
	 *
	 * @param <T> what the kit records of a request
	 * @param rule the rule it ran
	 * @param run the rule and its target: {@code W03 [vllm stream]}
	 * @param sent the requests it sent
	 */
	@API(status = API.Status.INTERNAL, since = "0.8")
	public record Made<T>(KitRule rule, String run, List<T> sent) {

		/** Not judged: the run passed its checks without the evidence its rule needs, {@code missing}. */
		public NotJudged withoutEvidence(List<String> missing) {
			return new NotJudged(run + ": its checks passed without the evidence it needs (" + rule.evidence().text() + "): "
					+ String.join("; ", missing));
		}
	}

	/** The rule a kit method runs, by the id in its name ({@code required_W01_modelAlias}: W01), from any rule index. */
	public static Optional<KitRule> rule(String method) {
		String[] parts = method.split("_");
		if (parts.length < 3) {
			return Optional.empty();
		}
		return Stream.<KitRule[]>of(WireRule.values(), ClientRule.values(), FaultRule.values())
				.flatMap(Arrays::stream)
				.filter(r -> r.id().equals(parts[1]))
				.findFirst();
	}

	/**
	 * Skips the rule run {@code run} (the rule and its target, {@code W03 [vllm stream]}) and ends it NOT_JUDGED with the
	 * probe's line when {@code unreached} has one for the run's dialect (its first {@link Dialect} argument).
	 */
	public static void requireProbed(Invocation<Void> invocation, ReflectiveInvocationContext<Method> context, String run,
			Function<Dialect, Optional<String>> unreached) {
		Optional<String> line = context.getArguments()
				.stream()
				.filter(Dialect.class::isInstance)
				.map(Dialect.class::cast)
				.findFirst()
				.flatMap(unreached);
		if (line.isPresent()) {
			invocation.skip();
			throw new NotJudged(run + ": the kit's probe did not reach its upstream through the gateway, so no rule is judged ("
					+ line.get() + ")");
		}
	}
}
