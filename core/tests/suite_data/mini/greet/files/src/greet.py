def greet(name):
    return "hello"
