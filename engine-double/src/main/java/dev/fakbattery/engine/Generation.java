package dev.fakbattery.engine;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import com.sun.net.httpserver.HttpExchange;

/**
 * Answers one admitted request on the timing model's absolute schedule, streamed or not, injecting its fault.
 * Each emission is serialized before its deadline, so at the deadline only the write and flush remain. The lag
 * recorded per emission (one per token step, one per non-streamed answer) is the time the write starts minus the
 * deadline: the double's own lateness, without time a slow reader holds the socket.
 *
 * @since 0.1
 */
final class Generation {

	private static final byte[] DONE = "data: [DONE]\n\n".getBytes(StandardCharsets.UTF_8);

	private final Turn turn;

	private final Wire wire;

	private final Fault fault;

	private final SchedulerState engine;

	private final SplittableRandom timingRandom;

	private final long arrival;

	private long deadline;

	private long lastEmission;

	private int generated;

	private int events;

	private boolean abortFired;

	private boolean malformedFired;

	private boolean stallFired;

	private boolean streamErrorFired;

	Generation(Turn turn, Wire wire, Fault fault, SchedulerState engine, SplittableRandom timingRandom, long arrival) {
		this.turn = turn;
		this.wire = wire;
		this.fault = fault;
		this.engine = engine;
		this.timingRandom = timingRandom;
		this.arrival = arrival;
		this.deadline = arrival + engine.timing().ttftNanos(turn.promptTokens() - turn.cachedTokens());
	}

	Turn turn() {
		return turn;
	}

	/** Tokens generated so far. */
	int generated() {
		return generated;
	}

	/** Streams the answer as SSE; returns how the generation ended. */
	EngineCounters.Finished stream(HttpExchange exchange) throws IOException {
		exchange.getResponseHeaders().set("Content-Type", "text/event-stream; charset=utf-8");
		exchange.sendResponseHeaders(200, 0);
		OutputStream out = exchange.getResponseBody();
		if (afterEvents(out)) {
			return EngineCounters.Finished.ABORT;
		}
		int steps = turn.completion().steps().size();
		for (int step = 0; step < steps; step++) {
			if (step > 0) {
				deadline += itl();
			}
			List<byte[]> stepEvents = encode(wire.stepEvents(turn, step));
			engine.pacer().awaitDeadline(deadline);
			engine.lag().record(System.nanoTime() - deadline);
			for (byte[] event : stepEvents) {
				if (emit(out, event)) {
					return EngineCounters.Finished.ABORT;
				}
			}
			tokenEmitted(step);
		}
		for (byte[] event : encode(wire.tailEvents(turn))) {
			if (emit(out, event)) {
				return EngineCounters.Finished.ABORT;
			}
		}
		if (firePending(out)) {
			return EngineCounters.Finished.ABORT;
		}
		out.write(DONE);
		out.flush();
		exchange.close();
		return turn.completion().counted();
	}

	/** Answers with one JSON body at the last token's deadline; returns how the generation ended. */
	EngineCounters.Finished respond(HttpExchange exchange) throws IOException {
		String body = wire.completion(turn);
		if (fault.malformedAfter() != Fault.UNSET) {
			body = body.substring(0, body.length() / 2);
		}
		deadline += fault.stallMillis() * 1_000_000L;
		int steps = turn.completion().steps().size();
		for (int step = 0; step < steps; step++) {
			if (step > 0) {
				deadline += itl();
			}
			engine.pacer().awaitDeadline(deadline);
			tokenEmitted(step);
		}
		engine.lag().record(System.nanoTime() - deadline);
		if (fault.abortAfter() != Fault.UNSET) {
			throw new AbortConnection("abort-after fault on a non-streamed request");
		}
		if (fault.streamErrorAfter() != Fault.UNSET) {
			Http.send(exchange, 500, Http.JSON, wire.errorBody(new ApiError(500, "Internal server error", null, null)));
			return EngineCounters.Finished.ABORT;
		}
		Http.send(exchange, 200, Http.JSON, body);
		return turn.completion().counted();
	}

	/** Writes one data event at the current deadline; returns true when a fault ended the stream. */
	private boolean emit(OutputStream out, byte[] event) throws IOException {
		engine.pacer().awaitDeadline(deadline);
		out.write(event);
		out.flush();
		events++;
		return afterEvents(out);
	}

	private void tokenEmitted(int step) {
		long now = System.nanoTime();
		engine.counters().generated();
		generated++;
		if (step == 0) {
			engine.counters().ttft.observeNanos(now - arrival);
		}
		else {
			engine.counters().itl.observeNanos(now - lastEmission);
		}
		lastEmission = now;
	}

	/** Fires the faults due after {@link #events} events; returns true when the stream ended. */
	private boolean afterEvents(OutputStream out) throws IOException {
		if (!stallFired && fault.stallMillis() > 0 && fault.stallAfter() == events) {
			stallFired = true;
			deadline = Math.max(deadline, System.nanoTime()) + fault.stallMillis() * 1_000_000L;
		}
		if (!malformedFired && fault.malformedAfter() == events) {
			sendMalformed(out);
		}
		if (!abortFired && fault.abortAfter() == events) {
			abort();
		}
		if (!streamErrorFired && fault.streamErrorAfter() == events) {
			sendStreamError(out);
			return true;
		}
		return false;
	}

	/** Faults whose count lies beyond the stream fire before {@code [DONE]}; returns true when the stream ended. */
	private boolean firePending(OutputStream out) throws IOException {
		if (!malformedFired && fault.malformedAfter() != Fault.UNSET) {
			sendMalformed(out);
		}
		if (!abortFired && fault.abortAfter() != Fault.UNSET) {
			abort();
		}
		if (!streamErrorFired && fault.streamErrorAfter() != Fault.UNSET) {
			sendStreamError(out);
			return true;
		}
		return false;
	}

	private void sendMalformed(OutputStream out) throws IOException {
		malformedFired = true;
		out.write((Fault.MALFORMED_LINE + "\n\n").getBytes(StandardCharsets.UTF_8));
		out.flush();
	}

	private void abort() {
		abortFired = true;
		throw new AbortConnection("abort-after fault after " + events + " events");
	}

	private void sendStreamError(OutputStream out) throws IOException {
		streamErrorFired = true;
		out.write(("data: " + wire.streamErrorFrame() + "\n\n").getBytes(StandardCharsets.UTF_8));
		out.write(DONE);
		out.flush();
		out.close();
	}

	private long itl() {
		return engine.timing().itlNanos(engine.counters().active.get(), timingRandom.nextDouble());
	}

	private static List<byte[]> encode(List<String> events) {
		List<byte[]> encoded = new ArrayList<>(events.size());
		for (String event : events) {
			encoded.add(("data: " + event + "\n\n").getBytes(StandardCharsets.UTF_8));
		}
		return encoded;
	}
}
