package dev.fakbattery.engine;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.Queue;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentLinkedQueue;

import com.sun.net.httpserver.HttpExchange;

/**
 * {@code POST /v1/chat/completions}: picks the request's fault, checks the request as the dialect does, plans the
 * completion and hands it to a {@link Generation}.
 *
 * @since 0.1
 */
final class ChatEndpoint implements Router.Endpoint {

	private final Wire wire;

	private final SchedulerState engine;

	private final CompletionPlanner planner;

	private final Queue<Fault> queuedFaults = new ConcurrentLinkedQueue<>();

	ChatEndpoint(Wire wire, SchedulerState engine, CompletionPlanner planner) {
		this.wire = wire;
		this.engine = engine;
		this.planner = planner;
	}

	void enqueue(Fault fault) {
		queuedFaults.add(fault);
	}

	@Override
	public void handle(HttpExchange exchange, byte[] body, long arrival) throws IOException {
		engine.counters().chatRequests.increment();
		Generation generation;
		try {
			generation = admit(exchange, body, arrival);
		}
		catch (ApiError error) {
			Http.send(exchange, error.status(), Http.JSON, wire.errorBody(error));
			return;
		}
		run(exchange, generation, arrival);
	}

	/** Checks the request as the dialect does and plans its answer; throws the error answer otherwise. */
	private Generation admit(HttpExchange exchange, byte[] body, long arrival) throws ApiError {
		Fault fault = fault(exchange);
		if (fault.status() != Fault.UNSET) {
			throw new ApiError(fault.status(), "Injected fault (status=" + fault.status() + ")", null, null);
		}
		EngineRequest request = EngineRequest.parse(body);
		wire.checkModel(request);
		wire.checkLength(request);
		SplittableRandom random = planner.random(request);
		Completion completion = planner.plan(request, wire, random);
		int cached = engine.counters().prefixCache.admit(request.blockHashes(), request.promptTokens());
		Turn turn = new Turn(wire.responseId(request, exchange.getRequestHeaders()), System.currentTimeMillis() / 1000,
				wire.responseModel(request), request, completion, cached);
		return new Generation(turn, wire, fault, engine, random.split(), arrival);
	}

	private void run(HttpExchange exchange, Generation generation, long arrival) throws IOException {
		EngineCounters counters = engine.counters();
		int promptTokens = generation.turn().promptTokens();
		counters.started(promptTokens);
		EngineCounters.Finished finished = EngineCounters.Finished.ABORT;
		try {
			finished = generation.turn().request().stream() ? generation.stream(exchange) : generation.respond(exchange);
		}
		catch (InterruptedIOException e) {
			throw e;
		}
		catch (IOException e) {
			counters.clientDisconnects.increment();
			throw e;
		}
		finally {
			counters.ended(promptTokens + generation.generated(), finished, System.nanoTime() - arrival);
		}
	}

	/** The header's fault, else the next queued one, else none. */
	private Fault fault(HttpExchange exchange) throws ApiError {
		String header = exchange.getRequestHeaders().getFirst(Fault.HEADER);
		if (header != null) {
			try {
				return Fault.parse(header);
			}
			catch (IllegalArgumentException e) {
				throw ApiError.badRequest(e.getMessage());
			}
		}
		Fault queued = queuedFaults.poll();
		return queued == null ? Fault.none() : queued;
	}
}
