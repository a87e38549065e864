using Net.Zmq.Security;
using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Security;

/// <summary>
/// The base of a test class whose tests each ask one <see cref="ZapAuthenticator"/>: each test gets a context of its own
/// (<see cref="Sockets.NewContext"/>) served by a fresh authenticator, both disposed after the test, the authenticator
/// first.
/// </summary>
public abstract class AuthenticatorPerTest : IDisposable
{
    protected AuthenticatorPerTest() => Authenticator = new ZapAuthenticator(Context);

    /// <summary>This test's context.</summary>
    protected Context Context { get; } = Sockets.NewContext();

    /// <summary>The authenticator serving <see cref="Context"/>.</summary>
    protected ZapAuthenticator Authenticator { get; }

    /// <inheritdoc />
    public void Dispose()
    {
        Dispose(disposing: true);
        GC.SuppressFinalize(this);
    }

    /// <summary>Disposes the authenticator, then the context; a derived class that holds more disposes it too and calls this.</summary>
    protected virtual void Dispose(bool disposing)
    {
        Authenticator.Dispose();
        Context.Dispose();
    }
}
