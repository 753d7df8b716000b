// The kit's side of every client script: reads the jobs (a JSON array of {key, url, request}) from standard input,
// reads each with the client's `read`, four at a time, and prints one JSON array of what the client made of each
// answer: {key, failure, status, content, calls: [{id, name, arguments}], finish, completionTokens}.
import { readFileSync } from 'node:fs';

export const API_KEY = 'kit-no-key';

/** A reading that ended in an error: its class and message, and the HTTP status the client attached, if any. */
export function failed(error) {
	const status = error?.status ?? error?.statusCode ?? error?.response?.status ?? error?.cause?.status ?? null;
	const name = error?.constructor?.name ?? typeof error;
	return { failure: `${name}: ${error?.message ?? String(error)}`.slice(0, 600), status: Number.isInteger(status) ? status : null };
}

/** A normal reading. */
export function answer(content, calls, finish, completionTokens) {
	return { failure: null, status: 200, content: content ?? '', calls, finish: finish ?? null,
		completionTokens: Number.isInteger(completionTokens) ? completionTokens : null };
}

/** The request's tools as name and JSON schema. */
export function tools(request) {
	return (request.tools ?? []).map(t => ({ name: t.function.name, parameters: t.function.parameters ?? { type: 'object' } }));
}

/** Runs every job through `read`, four at a time, and prints the readings in the order of the jobs. */
export async function main(read) {
	const jobs = JSON.parse(readFileSync(0, 'utf8'));
	const readings = new Array(jobs.length);
	let next = 0;
	async function worker() {
		while (next < jobs.length) {
			const i = next++;
			let reading;
			try {
				reading = await read(jobs[i].url, jobs[i].request);
			}
			catch (error) {
				reading = failed(error);
			}
			readings[i] = { key: jobs[i].key, ...reading };
		}
	}
	await Promise.all([worker(), worker(), worker(), worker()]);
	process.stdout.write(JSON.stringify(readings));
}
