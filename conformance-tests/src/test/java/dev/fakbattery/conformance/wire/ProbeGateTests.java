package dev.fakbattery.conformance.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import dev.fakbattery.conformance.rules.ClientRule;
import dev.fakbattery.conformance.rules.FaultRule;
import dev.fakbattery.conformance.rules.NotJudged;
import dev.fakbattery.conformance.rules.RuleOutcome;
import dev.fakbattery.conformance.rules.WireRule;
import dev.fakbattery.wire.Dialect;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.InvocationInterceptor.Invocation;
import org.junit.jupiter.api.extension.ReflectiveInvocationContext;

@DisplayName("the kits' probe gate: the rule a method runs, and no run past a probe that did not reach the upstream")
class ProbeGateTests {

	@Test
	@DisplayName("a kit method names its rule by id, from the wire, client and fault indexes; a method without one names none")
	void ruleByMethodName() {
		assertThat(ProbeGate.rule("required_W03_deniedNeverDelivered")).contains(WireRule.W03);
		assertThat(ProbeGate.rule("required_C01_sdkReads")).contains(ClientRule.C01);
		assertThat(ProbeGate.rule("required_F06_bodyLimit")).contains(FaultRule.F06);
		assertThat(ProbeGate.rule("required_F99_unknown")).isEmpty();
		assertThat(ProbeGate.rule("F06_bodyLimit")).isEmpty();
		assertThat(ProbeGate.rule("helper")).isEmpty();
	}

	@Test
	@DisplayName("a run of a dialect the probe did not get through is skipped and not judged, with the probe's line")
	void unreachedDialectNotJudged() {
		Run run = new Run();
		assertThatThrownBy(() -> ProbeGate.requireProbed(run, context(List.of("x", Dialect.SGLANG, Dialect.VLLM)), "F02 [sglang stream]",
				d -> d == Dialect.SGLANG ? Optional.of("probe line") : Optional.empty())).isInstanceOf(NotJudged.class)
				.hasMessage(RuleOutcome.NOT_JUDGED_PREFIX + "F02 [sglang stream]: the kit's probe did not reach its upstream through the "
						+ "gateway, so no rule is judged (probe line)");
		assertThat(run.skipped).isTrue();
	}

	@Test
	@DisplayName("a run of a dialect the probe got through, or of no dialect, goes on")
	void reachedDialectRuns() {
		Run run = new Run();
		ProbeGate.requireProbed(run, context(List.of(Dialect.VLLM, "stream")), "F02 [vllm stream]",
				d -> d == Dialect.SGLANG ? Optional.of("probe line") : Optional.empty());
		ProbeGate.requireProbed(run, context(List.of("stream")), "F02", d -> Optional.of("probe line"));
		assertThat(run.skipped).isFalse();
	}

	@Test
	@DisplayName("a rule run is made between the kit's begin and end, and named by its rule and target")
	void ruleRunMade() throws Throwable {
		Run run = new Run();
		List<String> calls = new ArrayList<>();
		Optional<ProbeGate.Made<String>> made = ProbeGate.make(run, context(Kit.method("required_F06_bodyLimit"), List.of(Dialect.VLLM)),
				"vllm stream", d -> Optional.empty(), () -> calls.add("begin"), () -> {
					calls.add("end after " + run.proceeded);
					return List.of("sent");
				});
		assertThat(calls).containsExactly("begin", "end after 1");
		assertThat(made).hasValueSatisfying(m -> {
			assertThat(m.rule()).isEqualTo(FaultRule.F06);
			assertThat(m.run()).isEqualTo("F06 [vllm stream]");
			assertThat(m.sent()).containsExactly("sent");
			assertThat(m.withoutEvidence(List.of("a", "b"))).hasMessage(RuleOutcome.NOT_JUDGED_PREFIX + "F06 [vllm stream]: its checks "
					+ "passed without the evidence it needs (" + FaultRule.F06.evidence().text() + "): a; b");
		});
	}

	@Test
	@DisplayName("a run that failed is collected all the same, and its failure stands")
	void failedRunCollected() {
		Run run = new Run();
		run.failure = new AssertionError("F06 failed");
		List<String> calls = new ArrayList<>();
		assertThatThrownBy(() -> ProbeGate.make(run, context(Kit.method("required_F06_bodyLimit"), List.of(Dialect.VLLM)), "vllm stream",
				d -> Optional.empty(), () -> calls.add("begin"), () -> {
					calls.add("end");
					return List.of();
				})).hasMessage("F06 failed");
		assertThat(calls).containsExactly("begin", "end");
	}

	@Test
	@DisplayName("a method that runs no rule runs plainly, without collecting; an unreached dialect is not run at all")
	void noRulePlainUnreachedNotRun() throws Throwable {
		Run run = new Run();
		List<String> calls = new ArrayList<>();
		assertThat(ProbeGate.make(run, context(Kit.method("helper"), List.of(Dialect.VLLM)), "vllm stream", d -> Optional.of("line"),
				() -> calls.add("begin"), List::<String>of)).isEmpty();
		assertThat(run.proceeded).isEqualTo(1);
		assertThat(calls).isEmpty();
		assertThatThrownBy(() -> ProbeGate.make(run, context(Kit.method("required_F06_bodyLimit"), List.of(Dialect.VLLM)), "vllm stream",
				d -> Optional.of("line"), () -> calls.add("begin"), List::<String>of)).isInstanceOf(NotJudged.class);
		assertThat(run.proceeded).isEqualTo(1);
		assertThat(run.skipped).isTrue();
		assertThat(calls).isEmpty();
	}

	private static ReflectiveInvocationContext<Method> context(List<Object> arguments) {
		return context(null, arguments);
	}

	/** Methods named as a kit's: one runs F06, one no rule. */
	static final class Kit {
		void required_F06_bodyLimit() {
		}

		void helper() {
		}

		static Method method(String name) {
			try {
				return Kit.class.getDeclaredMethod(name);
			}
			catch (NoSuchMethodException e) {
				throw new IllegalStateException(e);
			}
		}
	}

	private static ReflectiveInvocationContext<Method> context(Method method, List<Object> arguments) {
		return new ReflectiveInvocationContext<>() {
			@Override
			public Class<?> getTargetClass() {
				return Object.class;
			}

			@Override
			public Method getExecutable() {
				return method;
			}

			@Override
			public List<Object> getArguments() {
				return arguments;
			}

			@Override
			public Optional<Object> getTarget() {
				return Optional.empty();
			}
		};
	}

	private static final class Run implements Invocation<Void> {

		boolean skipped;

		int proceeded;

		Throwable failure;

		@Override
		public Void proceed() throws Throwable {
			proceeded++;
			if (failure != null) {
				throw failure;
			}
			return null;
		}

		@Override
		public void skip() {
			skipped = true;
		}
	}
}
