"""Running the learner: the run skeleton, one domain, samples, the run folder, publishing."""
