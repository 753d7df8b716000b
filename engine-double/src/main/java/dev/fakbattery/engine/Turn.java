package dev.fakbattery.engine;

/**
 * One request being answered: the ids and names the response carries and what is generated.
 *
 * @param id response {@code id}
 * @param created response {@code created} (SGLang re-stamps chunks; see {@link SglangWire})
 * @param model response {@code model}
 * @param request the parsed request
 * @param completion what is generated
 * @param cachedTokens prompt tokens served from the prefix cache (no prefill time)
 * @since 0.1
 */
record Turn(String id, long created, String model, EngineRequest request, Completion completion, int cachedTokens) {

	int promptTokens() {
		return request.promptTokens();
	}

	boolean lastStep(int step) {
		return step == completion.steps().size() - 1;
	}
}
