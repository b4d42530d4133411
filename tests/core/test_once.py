"""made_once: a cached value that threads asking at the same moment make once."""

import threading
import time

from core.once import made_once


def ask_at_once(function, *args, threads=8):
    start = threading.Barrier(threads)
    answers = []

    def ask():
        start.wait()
        answers.append(function(*args))

    workers = [threading.Thread(target=ask) for _ in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    return answers


def test_threads_asking_at_once_get_the_one_value_made_once():
    made = []

    @made_once
    def slow(key):
        time.sleep(0.01)  # wide enough that every thread arrives while the first is making it
        made.append(key)
        return object()

    answers = ask_at_once(slow, "a")

    assert made == ["a"]
    assert len({id(answer) for answer in answers}) == 1


def test_each_arguments_get_their_own_value():
    @made_once
    def value(key):
        return [key]

    assert value("a") is value("a")
    assert value("a") is not value("b")
