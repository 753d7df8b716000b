package dev.fakbattery.bench.tax;

import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.function.Predicate;
import java.util.stream.Collectors;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fakbattery.core.RungRecorder;
import dev.fakbattery.core.load.RequestOutcome;

/**
 * One phase of a rung 3 run (a warm-up, a ramp, a level) counted per arm: the raw arm's and the gateway arm's failed
 * requests, or their first attempts dropped on a reused connection and sent again ({@link RequestOutcome#retried()}).
 * The two arms ask the same engine for the same conversations in the same phase, so what the gateway arm has beyond the
 * raw arm's is the gateway's.
 *
 * <p>Failures: the gateway fails when its arm failed more requests than the raw arm and either the raw arm failed none
 * (a gateway-arm failure the raw arm does not have) or, where the raw arm failed too (the engine failing), a one-sided
 * sign test over the phase's failures puts the gateway's share beyond chance ({@value #SIGN_TEST_ALPHA}): failures the
 * arms share equally are the engine's, recorded, and make the phase not good, never the gateway's FAIL.
 *
 * <p>Dropped first attempts: a kept-alive connection closed by the server just as a request goes out can happen to any
 * server now and then, so the gateway fails when its arm has more than {@link #retryAllowance()} beyond the raw arm's:
 * {@value #RETRY_SHARE_PERCENT} % of its requests, at least one.
 *
 * @param where the phase, e.g. {@code 8.00 req/s} or {@code warm-up}
 * @param raw the raw arm's count
 * @param gateway the gateway arm's count
 * @param gatewayRequests the gateway arm's requests in the phase
 * @param firstGatewayError the gateway arm's first failure (or retry reason); {@code null} when none
 * @since 0.11
 */
record ArmFailures(String where, int raw, int gateway, int gatewayRequests, String firstGatewayError) {

	/** The sign test's level where both arms failed: {@value}. */
	static final double SIGN_TEST_ALPHA = 0.01;

	/** The dropped first attempts a gateway arm may have beyond the raw arm's, in percent of its requests: {@value}. */
	static final int RETRY_SHARE_PERCENT = 1;

	/** The rule of {@code gateway_failures}, for the artifact. */
	static final String FAILURE_RULE = "FAIL when the gateway arm failed more requests than the raw arm in the same phase and "
			+ "either the raw arm failed none or a one-sided sign test over the phase's failures gives p < " + SIGN_TEST_ALPHA
			+ "; failures both arms share are the engine's (the phase not good, never the gateway's FAIL)";

	/** The rule of {@code gateway_retries}, for the artifact. */
	static final String RETRY_RULE = "FAIL when the gateway arm's first attempts dropped on a reused connection (sent again) "
			+ "exceed the raw arm's by more than " + RETRY_SHARE_PERCENT + " % of its requests, at least 1";

	/** The failed requests of each arm of {@code where}. */
	static ArmFailures failures(String where, Collection<RequestOutcome> raw, Collection<RequestOutcome> gateway) {
		return count(where, raw, gateway, o -> !o.ok(), RequestOutcome::error);
	}

	/** The requests of each arm of {@code where} whose first attempt was dropped on a reused connection. */
	static ArmFailures retries(String where, Collection<RequestOutcome> raw, Collection<RequestOutcome> gateway) {
		return count(where, raw, gateway, RequestOutcome::retried, RequestOutcome::retry);
	}

	private static ArmFailures count(String where, Collection<RequestOutcome> raw, Collection<RequestOutcome> gateway,
			Predicate<RequestOutcome> counted, java.util.function.Function<RequestOutcome, String> why) {
		return new ArmFailures(where, (int) raw.stream().filter(counted).count(), (int) gateway.stream().filter(counted).count(),
				gateway.size(), gateway.stream().filter(counted).findFirst().map(why).orElse(null));
	}

	/** Whether the gateway arm failed beyond the raw arm ({@link #FAILURE_RULE}). */
	boolean gatewayFailsMore() {
		return gateway > raw && (raw == 0 || signTestP(gateway, raw) < SIGN_TEST_ALPHA);
	}

	/** The dropped first attempts the gateway arm may have beyond the raw arm's: 1 % of its requests, at least 1. */
	int retryAllowance() {
		return Math.max(1, (int) Math.ceil(gatewayRequests * RETRY_SHARE_PERCENT / 100.0));
	}

	/** Whether the gateway arm dropped more first attempts than the raw arm's and the allowance. */
	boolean gatewayDropsMore() {
		return gateway > raw + retryAllowance();
	}

	/**
	 * The chance that {@code gateway} or more of {@code gateway + raw} failures fall on the gateway arm when each is as
	 * likely on either arm: the binomial upper tail at one half.
	 */
	static double signTestP(int gateway, int raw) {
		int n = gateway + raw;
		double tail = 0;
		for (int k = gateway; k <= n; k++) {
			tail += Math.exp(logChoose(n, k) - n * Math.log(2));
		}
		return Math.min(1, tail);
	}

	private static double logChoose(int n, int k) {
		double sum = 0;
		for (int i = 1; i <= k; i++) {
			sum += Math.log(n - k + i) - Math.log(i);
		}
		return sum;
	}

	/**
	 * Records {@code failures_by_arm} and the product check {@code gateway_failures}: it fails, naming each phase, the
	 * counts and the gateway's first error, when the gateway arm failed beyond the raw arm in any phase; a product check,
	 * so no invalid instrument hides it. Not run: a failed check saying so, never a pass.
	 */
	static void judgeFailures(RungRecorder run, List<ArmFailures> phases, String notRun) {
		judge(run, "gateway_failures", "failures_by_arm", FAILURE_RULE, phases, notRun, ArmFailures::gatewayFailsMore, "failed",
				"no phase (warm-up, ramp or level) where the gateway arm fails requests beyond the raw arm's");
	}

	/** Records {@code retries_by_arm} and the product check {@code gateway_retries} ({@link #RETRY_RULE}). */
	static void judgeRetries(RungRecorder run, List<ArmFailures> phases, String notRun) {
		judge(run, "gateway_retries", "retries_by_arm", RETRY_RULE, phases, notRun, ArmFailures::gatewayDropsMore,
				"first attempts dropped on a reused connection",
				"no phase where the gateway arm drops first attempts on reused connections beyond the raw arm's and 1 % of its requests");
	}

	private static void judge(RungRecorder run, String check, String field, String rule, List<ArmFailures> phases, String notRun,
			Predicate<ArmFailures> fails, String what, String expected) {
		ObjectNode node = run.body().putObject(field);
		node.put("rule", rule);
		ArrayNode array = node.putArray("phases");
		phases.forEach(p -> p.writeTo(array.addObject(), fails.test(p)));
		if (notRun != null) {
			run.check(check, false, expected, notRun);
			return;
		}
		List<ArmFailures> failing = phases.stream().filter(fails).toList();
		String observed = failing.isEmpty()
				? String.format(Locale.ROOT, "%d phases: gateway %d %s, raw %d", phases.size(),
						phases.stream().mapToInt(ArmFailures::gateway).sum(), what, phases.stream().mapToInt(ArmFailures::raw).sum())
				: failing.stream().map(p -> p.describe(what)).collect(Collectors.joining("; "));
		run.check(check, failing.isEmpty(), expected, observed, !failing.isEmpty());
	}

	/** {@code 8.00 req/s: gateway 3 failed of 24, raw 0 (first: HTTP 500 ...)}. */
	String describe(String what) {
		return String.format(Locale.ROOT, "%s: gateway %d %s of %d, raw %d%s", where, gateway, what, gatewayRequests, raw,
				firstGatewayError == null ? "" : " (gateway's first: " + firstGatewayError + ")");
	}

	private void writeTo(ObjectNode node, boolean gatewayFault) {
		node.put("where", where);
		node.put("raw", raw);
		node.put("gateway", gateway);
		node.put("gateway_requests", gatewayRequests);
		if (firstGatewayError != null) {
			node.put("gateway_first", firstGatewayError);
		}
		node.put("gateway_fault", gatewayFault);
	}
}
