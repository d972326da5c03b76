"""The American Gangsters engine: game state as one numpy record (`state`), every rule as jitted step
functions (`engine`), one decision interface (`decisions`) whose policies are in `strategies.ag.policy`,
exact location odds (`odds`), batches of games as integer tables (`batch`), one game in words
(`narrate`), and the runner's adapter (`adapter`)."""
