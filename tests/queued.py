"""Running queued tasks as a worker would, in the test's process: the messages waiting in the in-memory
broker are taken off it and applied, with what their commits queue in turn."""

from celery import current_app


def drain_queue():
    """The (task name, args, kwargs) of every message waiting in the broker's queues (taken off them)."""
    found = []
    with current_app.connection_for_read() as connection:
        for task_queue in current_app.conf.task_queues:
            queue = connection.SimpleQueue(task_queue.name)
            while True:
                try:
                    message = queue.get(block=False)
                except queue.Empty:
                    break
                args, kwargs, _embed = message.decode()
                found.append((message.headers["task"], args, kwargs))
                message.ack()
            queue.close()
    return found


def run_queued(capture, names):
    """Run the waiting tasks named in names, and those they queue in turn (after their commit), as a
    worker would; other messages (the hub sync, with no hub in these tests) are dropped. Returns the
    names run, in order."""
    ran = []
    while waiting := [message for message in drain_queue() if message[0] in names]:
        for name, args, kwargs in waiting:
            with capture(execute=True):
                current_app.tasks[name].apply(args, kwargs)
            ran.append(name)
    return ran
