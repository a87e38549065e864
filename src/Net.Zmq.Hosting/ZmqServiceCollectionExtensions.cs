using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Logging.Abstractions;
using Net.Zmq.Security;

namespace Net.Zmq.Hosting;

/// <summary>Registers Net.Zmq's <see cref="Context"/> and <see cref="ZapAuthenticator"/> with a service collection.</summary>
public static class ZmqServiceCollectionExtensions
{
    /// <summary>
    /// Registers one <see cref="Context"/> for the application (a singleton, created on first use, disposed with the
    /// container). When the host starts stopping (<c>IHostApplicationLifetime.ApplicationStopping</c>, before any
    /// hosted service's <c>StopAsync</c>) the context is shut down: blocking calls on its sockets end at once with
    /// <see cref="ContextTerminatedException"/>, and asynchronous ones complete with it.
    /// </summary>
    /// <param name="services">The service collection.</param>
    /// <param name="configure">Sets the context's options; null keeps the defaults.</param>
    /// <returns><paramref name="services"/>, for chaining.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="services"/> is null.</exception>
    public static IServiceCollection AddZmqContext(this IServiceCollection services, Action<ZmqContextOptions>? configure = null)
    {
        ArgumentNullException.ThrowIfNull(services);
        var options = new ZmqContextOptions();
        configure?.Invoke(options);
        services.AddSingleton(provider => CreateContext(provider, options));
        return services;
    }

    /// <summary>
    /// Registers a <see cref="ZapAuthenticator"/> on the registered <see cref="Context"/> (add it with
    /// <see cref="AddZmqContext"/>), whose decisions are logged (category <c>Net.Zmq.Security.ZapAuthenticator</c>):
    /// allowed peers at Information, refused ones at Warning. It is created on first use: inject it where the server
    /// socket is set up, before that socket accepts peers.
    /// </summary>
    /// <param name="services">The service collection.</param>
    /// <param name="configure">Sets up its policies (<see cref="ZapAuthenticator.DefaultPolicy"/>, <see cref="ZapAuthenticator.ForDomain"/>).</param>
    /// <returns><paramref name="services"/>, for chaining.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="services"/> is null.</exception>
    public static IServiceCollection AddZmqZapAuthenticator(this IServiceCollection services, Action<ZapAuthenticator>? configure = null)
    {
        ArgumentNullException.ThrowIfNull(services);
        services.AddSingleton(provider =>
        {
            var authenticator = new ZapAuthenticator(provider.GetRequiredService<Context>());
            try
            {
                authenticator.LogDecisions(LoggerFor(provider, typeof(ZapAuthenticator)));
                configure?.Invoke(authenticator);
                return authenticator;
            }
            catch
            {
                authenticator.Dispose();
                throw;
            }
        });
        return services;
    }

    private static Context CreateContext(IServiceProvider provider, ZmqContextOptions options)
    {
        ILogger logger = LoggerFor(provider, typeof(Context));
        Context context = options.CreateContext();
        HostingLog.ContextCreated(logger, Context.Version);
        if (options.ShutdownWhenStopping && provider.GetService<IHostApplicationLifetime>() is { } lifetime)
        {
            // Registered for as long as the host lives; a context created after stopping began is shut down at once.
            lifetime.ApplicationStopping.Register(() => ShutDown(context, logger));
        }

        return context;
    }

    private static void ShutDown(Context context, ILogger logger)
    {
        try
        {
            context.Shutdown();
            HostingLog.ContextShutDown(logger);
        }
        catch (ObjectDisposedException)
        {
            // Disposed already: nothing is left to stop.
        }
    }

    private static ILogger LoggerFor(IServiceProvider provider, Type type) =>
        provider.GetService<ILoggerFactory>()?.CreateLogger(type.FullName ?? type.Name) ?? NullLogger.Instance;
}
